# Jupyter notebooks: cells linted as one module, positions per cell in each
# format, magics blanked, noqa per cell line and file-wide, folder walks and
# the include settings, bad notebooks, the cache, and --fix/--diff writing
# only the cells' sources back (everything else byte for byte).
# Usage: bash test_notebook.sh PATH_TO_OOMLINT
. "$(dirname "$0")/lib.sh" "$@"

# A notebook as Jupyter writes it (one-space indent, sorted keys, trailing
# newline), with a markdown cell, outputs, metadata, a line magic, a shell
# escape, a `%%time` cell, CRLF sources, an empty cell and non-ASCII text.
# Cell 2 line 6 is OOM101 (`total_loss += loss`, an unsafe fix).
write_nb() {
  cat >"$1" <<'EOF'
{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "# Training — a notebook\n",
    "Text between cells."
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {
    "tags": ["setup"]
   },
   "outputs": [],
   "source": [
    "%matplotlib inline\n",
    "!pip install torch\n",
    "import torch\n",
    "model = torch.nn.Linear(2, 2)\n",
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 2,
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "tensor(3.2)\n"
     ]
    }
   ],
   "source": [
    "%%time\r\n",
    "total_loss = 0\r\n",
    "for x in range(10):\r\n",
    "    opt.zero_grad()\r\n",
    "    loss = model(torch.randn(2)).sum()\r\n",
    "    total_loss += loss\r\n",
    "    loss.backward()\r\n",
    "    opt.step()\r\n",
    "print(total_loss)  # é"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "metadata": {},
   "outputs": [],
   "source": []
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "metadata": {},
   "outputs": [],
   "source": "%%bash\nfor x in $(ls); do echo $x; done\n"
  }
 ],
 "metadata": {
  "kernelspec": {
   "display_name": "Python 3",
   "language": "python",
   "name": "python3"
  },
  "language_info": {
   "name": "python"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
EOF
}

begin "a notebook's finding is reported by cell, row and column"
write_nb nb.ipynb
oom --no-cache --output-format concise nb.ipynb
want_rc 1
want_line '^nb\.ipynb:cell 2:6:5: OOM101 '
want_count 'OOM' 1
end

begin "the magics, the shell escape and a %%bash cell are not parsed"
oom --no-cache --output-format concise nb.ipynb
want_no_out "OOM000"
want_no_out "cell 4"
want_no_out "cell 1"
end

begin "JSON carries Ruff's cell field and rows inside the cell"
oom --no-cache --output-format json nb.ipynb
want_json
want_js 'a[0].cell' 2
want_js 'a[0].location.row' 6
want_js 'a[0].noqa_row' 6
want_js 'a[0].fix.edits[0].location.row' 6
end

begin "a Python file keeps a null cell"
printf 'import torch\nt = 0\nfor b in loader:\n    loss = model(b).sum()\n    loss.backward()\n    t += loss\n' >plain.py
oom --no-cache --output-format json plain.py
want_js 'a[0].cell' null
end

# the line of the .ipynb that holds the finding's source line
FILE_LINE=$(grep -n '"    total_loss += loss\\r\\n",' nb.ipynb | cut -d: -f1)

begin "SARIF points at the notebook's line and names the cell and the position in it"
[ "$FILE_LINE" = 45 ] || fail "setup: the line is $FILE_LINE"
oom --no-cache --output-format sarif nb.ipynb
want_json
want_js 'a.runs[0].results[0].properties.cell' 2
want_js 'a.runs[0].results[0].properties.cellLine' 6
want_js 'a.runs[0].results[0].properties.cellColumn' 5
want_js 'a.runs[0].results[0].locations[0].physicalLocation.region.startLine' "$FILE_LINE"
want_js 'a.runs[0].results[0].locations[0].logicalLocations[0].name' 'cell 2'
want_js '"fixes" in a.runs[0].results[0]' false
end

begin "GitHub, GitLab and JUnit point at the notebook's line and name the cell"
oom --no-cache --output-format github nb.ipynb
want_out "file=nb.ipynb,line=$FILE_LINE,endLine=$FILE_LINE::"
want_out "nb.ipynb:cell 2:6:5: OOM101"
oom --no-cache --output-format gitlab nb.ipynb
want_js 'a[0].location.lines.begin' "$FILE_LINE"
want_js 'a[0].description.startsWith("cell 2: ")' true
oom --no-cache --output-format junit nb.ipynb
want_out "nb.ipynb:cell 2:6:5"
want_out "line=\"$FILE_LINE\""
end

begin "full output shows the cell's row in its gutter"
oom --no-cache nb.ipynb
want_out "nb.ipynb:cell 2:6:5: OOM101"
want_line '^6 \|     total_loss \+= loss'
end

begin "# noqa on a cell's line silences that line"
write_nb q.ipynb
sed -i 's|"    total_loss += loss\\r\\n"|"    total_loss += loss  # noqa: OOM101\\r\\n"|' q.ipynb
oom --no-cache --output-format concise q.ipynb
want_rc 0
want_no_out "OOM101"
end

begin "a file-level noqa in the first cell silences the notebook"
write_nb f.ipynb
sed -i 's|"%matplotlib inline\\n",|"# oomlint: noqa: OOM101\\n",|' f.ipynb
oom --no-cache --output-format concise f.ipynb
want_rc 0
end

begin "a folder walk lints notebooks"
mkdir -p walk/sub
write_nb walk/sub/nb.ipynb
printf 'x = 1\n' >walk/ok.py
printf 'not json' >walk/notes.txt
oom --no-cache --output-format concise walk
want_rc 1
want_line '^walk/sub/nb\.ipynb:cell 2:6:5: OOM101'
end

begin "include = [\"*.py\"] leaves notebooks out; extend-include adds files"
mkdir -p inc
write_nb inc/nb.ipynb
printf 'import torch\nt = 0\nfor b in loader:\n    loss = model(b).sum()\n    loss.backward()\n    t += loss\n' >inc/train.pyw
printf '[tool.oomlint]\ninclude = ["*.py"]\n' >inc/pyproject.toml
oom --no-cache --output-format concise inc
want_rc 0
printf '[tool.oomlint]\nextend-include = ["*.pyw"]\n' >inc/pyproject.toml
oom --no-cache --output-format concise inc
want_rc 1
want_line '^inc/nb\.ipynb:cell 2:6:5: OOM101'
want_line '^inc/train\.pyw:6:5: OOM101'
end

begin "invalid JSON and nbformat 3 are errors (exit 2), the other files still lint"
printf '{"cells": [' >broken.ipynb
printf '{"nbformat": 3, "worksheets": []}' >old.ipynb
printf '[1, 2]' >list.ipynb
printf '{"nbformat": 4, "cells": [{"cell_type": "code", "source": 7}]}' >odd.ipynb
oom --no-cache --output-format concise broken.ipynb old.ipynb list.ipynb odd.ipynb nb.ipynb
want_rc 2
want_err "broken.ipynb: not a notebook: invalid JSON"
want_err "old.ipynb: nbformat 3 is not supported"
want_err "list.ipynb: not a notebook"
want_err "odd.ipynb: not a notebook: the source of cell 1"
want_line '^nb\.ipynb:cell 2:6:5: OOM101'
end

begin "a bad notebook under --fix is an error too, and stays as it was"
cp broken.ipynb b2.ipynb
oom --fix b2.ipynb
want_rc 2
want_err "not a notebook"
cmp -s broken.ipynb b2.ipynb || fail "b2.ipynb changed"
end

begin "the result cache serves notebooks, and sees a change"
mkdir -p cache && write_nb cache/nb.ipynb
oom --cache-dir cdir --output-format concise cache
want_line '^cache/nb\.ipynb:cell 2:6:5: OOM101'
first=$OUT
oom --cache-dir cdir --output-format concise cache
[ "$OUT" = "$first" ] || fail "second run differs: $(_show "$OUT")"
[ -n "$(find cdir -type f | head -1)" ] || fail "no cache file written"
sed -i 's|"    total_loss += loss\\r\\n"|"    total_loss += loss.item()\\r\\n"|' cache/nb.ipynb
oom --cache-dir cdir --output-format concise cache
want_rc 0
end

begin "--fix rewrites only the cell's line; outputs, metadata, magics, CRLF and layout stay"
write_nb fix.ipynb
write_nb want.ipynb
sed -i 's|"    total_loss += loss\\r\\n"|"    total_loss += loss.item()\\r\\n"|' want.ipynb
oom --fix --unsafe-fixes fix.ipynb
want_rc 0
cmp -s fix.ipynb want.ipynb || fail "fix.ipynb: $(diff want.ipynb fix.ipynb | head -20)"
no_left=$(find . -maxdepth 1 -name '.oomlint-*' | head -1)
[ -z "$no_left" ] || fail "temporary file left: $no_left"
end

begin "--fix on a fixed notebook changes nothing"
cp fix.ipynb again.ipynb
oom --fix --unsafe-fixes again.ipynb
want_rc 0
cmp -s fix.ipynb again.ipynb || fail "changed again"
end

begin "--fix of a notebook whose source is one string keeps it one string"
printf '{\n "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,\n   "source": "import torch\\nt = 0\\nfor b in loader:\\n    loss = model(b).sum()\\n    loss.backward()\\n    t += loss\\n"}],\n "metadata": {}, "nbformat": 4, "nbformat_minor": 2}' >s.ipynb
oom --fix --unsafe-fixes s.ipynb
want_rc 0
grep -q '"source": "import torch\\nt = 0\\nfor b in loader:\\n    loss = model(b).sum()\\n    loss.backward()\\n    t += loss.item()\\n"}' s.ipynb || fail "s.ipynb: $(cat s.ipynb)"
end

begin "--diff shows the cell's diff and leaves the notebook alone"
write_nb d.ipynb
write_nb d0.ipynb
oom --diff --unsafe-fixes d.ipynb
want_rc 1
want_out "--- a/d.ipynb:cell 2"
want_out "+    total_loss += loss.item()"
cmp -s d.ipynb d0.ipynb || fail "d.ipynb changed"
end

begin "a notebook whose sources cannot be located is not fixed"
# an escaped key: the same notebook to a JSON reader, but not the bytes a
# fix could be spliced into safely
printf '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "sour\\u0063e": ["import torch\\n", "t = 0\\n", "for b in loader:\\n", "    loss = model(b).sum()\\n", "    loss.backward()\\n", "    t += loss\\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n' >esc.ipynb
cp esc.ipynb esc0.ipynb
oom --no-cache --output-format concise esc.ipynb
want_line '^esc\.ipynb:cell 1:6:5: OOM101'
oom --fix --unsafe-fixes esc.ipynb
want_rc 1
want_err "esc.ipynb: the fixes were not applied: the notebook's cell sources could not be located"
cmp -s esc.ipynb esc0.ipynb || fail "esc.ipynb changed"
end

begin "stdin with --stdin-filename NAME.ipynb is a notebook"
oom --stdin nb.ipynb --no-cache --output-format concise --stdin-filename in.ipynb -
want_rc 1
want_line '^in\.ipynb:cell 2:6:5: OOM101'
end

begin "an R notebook's cells and a cell VS Code marks as another language are not read as Python"
printf '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["library(torch)\\n", "x <- c(1, 2)\\n"]}], "metadata": {"kernelspec": {"language": "R", "name": "ir"}}, "nbformat": 4, "nbformat_minor": 5}\n' >r.ipynb
printf '{"cells": [{"cell_type": "code", "metadata": {"vscode": {"languageId": "sql"}}, "outputs": [], "source": ["SELECT * FROM t WHERE x = (1\\n"]}, {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["import torch\\n", "t = 0\\n", "for b in loader:\\n", "    loss = model(b).sum()\\n", "    loss.backward()\\n", "    t += loss\\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n' >sql.ipynb
oom --no-cache --output-format concise r.ipynb sql.ipynb
want_rc 1
want_no_out "OOM000"
want_no_out "r.ipynb"
want_line '^sql\.ipynb:cell 2:6:5: OOM101'
end

begin "estimate reads a notebook's cells and places models by cell"
oom estimate nb.ipynb
want_rc 0
want_out "model \`model\`: nn.Linear, built at nb.ipynb:cell 1:4"
oom estimate --output-format json nb.ipynb
want_js 'a.models[0].cell' 1
want_js 'a.models[0].line' 4
want_js 'a.models[0].parts[0].cell' 1
oom estimate broken.ipynb
want_rc 2
want_err "broken.ipynb: not a notebook"
end

begin "--fix on stdin prints the fixed notebook"
write_nb in.ipynb
write_nb want2.ipynb
sed -i 's|"    total_loss += loss\\r\\n"|"    total_loss += loss.item()\\r\\n"|' want2.ipynb
oom --stdin in.ipynb --fix --unsafe-fixes --stdin-filename in.ipynb -
want_rc 0
printf '%s\n' "$OUT" >got.ipynb
cmp -s got.ipynb want2.ipynb || fail "stdout: $(diff want2.ipynb got.ipynb | head -10)"
end

finish
