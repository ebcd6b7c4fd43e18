# Installation and packaging: `cmake --install` puts the binary, the man page
# (generated from --help) and the bash, zsh and fish completions in the usual
# places; `cpack -G DEB` builds a package that depends on the runtime libraries.
# Usage: bash test_install.sh PATH_TO_OOMLINT (inside its CMake build folder)
. "$(dirname "$0")/lib.sh" "$@"

BUILD=$(dirname "$OOMLINT")
if [ ! -f "$BUILD/cmake_install.cmake" ] || ! command -v cmake >/dev/null 2>&1; then
  skip "install" "$OOMLINT is not in a CMake build folder"
  finish
fi
PREFIX=$SCRATCH/prefix

begin "cmake --install puts every file in place"
cmake --install "$BUILD" --prefix "$PREFIX" >install.log 2>&1 || fail "cmake --install failed: $(tail -3 install.log)"
for f in bin/oomlint share/man/man1/oomlint.1 share/bash-completion/completions/oomlint \
  share/zsh/vendor-completions/_oomlint share/fish/vendor_completions.d/oomlint.fish; do
  [ -f "$PREFIX/$f" ] || fail "missing $f"
done
[ -x "$PREFIX/bin/oomlint" ] || fail "bin/oomlint not executable"
end

begin "the installed binary runs with no files beside it"
oom_installed=$PREFIX/bin/oomlint
write_bad bad.py
out=$("$oom_installed" --isolated --output-format concise bad.py 2>&1)
case $out in *"bad.py:6:5: OOM501"*) ;; *) fail "installed oomlint: $(_show "$out")" ;; esac
end

begin "the man page carries every option of --help"
page=$PREFIX/share/man/man1/oomlint.1
grep -q '^\.TH OOMLINT 1' "$page" || fail "no .TH header"
for opt in $("$OOMLINT" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
  grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$page" || fail "man page lacks $opt"
done
if command -v man >/dev/null 2>&1; then
  rendered=$(MANWIDTH=80 man -l "$page" 2>&1)
  case $rendered in *"--select"*"--threads"*) ;; *) fail "man -l rendering: $(_show "$rendered")" ;; esac
fi
end

begin "the completions parse in their shells"
bash -n "$PREFIX/share/bash-completion/completions/oomlint" || fail "bash -n failed"
if command -v zsh >/dev/null 2>&1; then zsh -n "$PREFIX/share/zsh/vendor-completions/_oomlint" || fail "zsh -n failed"; fi
if command -v fish >/dev/null 2>&1; then fish -n "$PREFIX/share/fish/vendor_completions.d/oomlint.fish" || fail "fish -n failed"; fi
end

begin "bash completion offers options, formats and subcommands"
got=$(bash -c '
  source "$1"
  COMP_WORDS=(oomlint --output-format s); COMP_CWORD=2; _oomlint; echo "${COMPREPLY[*]}"
  COMP_WORDS=(oomlint --thr); COMP_CWORD=1; _oomlint; echo "${COMPREPLY[*]}"
  COMP_WORDS=(oomlint ru); COMP_CWORD=1; _oomlint; echo "${COMPREPLY[*]}"
' _ "$PREFIX/share/bash-completion/completions/oomlint" 2>&1)
[ "$got" = $'sarif\n--threads\nrule rules' ] || fail "completions $(_show "$got")"
end

begin "cpack -G DEB: a package with the runtime library dependencies"
if ! command -v cpack >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
  WHY="" # nothing to check without them
else
  (cd "$BUILD" && cpack -G DEB -B "$SCRATCH/pkg" >"$SCRATCH/cpack.log" 2>&1) || fail "cpack failed: $(tail -3 "$SCRATCH/cpack.log")"
  deb=$(ls "$SCRATCH"/pkg/*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || fail "no .deb written"
  if [ -n "$deb" ]; then
    info=$(dpkg-deb -f "$deb" Package Depends)
    for dep in libtree-sitter0 libpcre2-8-0 libjansson4 libyaml-0-2; do
      case $info in *"$dep"*) ;; *) fail "Depends lacks $dep: $(_show "$info")" ;; esac
    done
    files=$(dpkg-deb -c "$deb")
    for f in ./usr/bin/oomlint ./usr/share/man/man1/oomlint.1 ./usr/share/bash-completion/completions/oomlint; do
      case $files in *" $f"*) ;; *) fail "package lacks $f" ;; esac
    done
  fi
fi
end

finish
