# Installation and packaging: the binary, the man page generated from
# `oomlint --help` at build time, shell completions, and a Debian package.
include(GNUInstallDirs)

set(OOM_MANPAGE ${CMAKE_BINARY_DIR}/oomlint.1)
add_custom_command(OUTPUT ${OOM_MANPAGE}
  COMMAND ${CMAKE_COMMAND} -DOOMLINT=$<TARGET_FILE:oomlint_cli> -DVERSION=${PROJECT_VERSION} -DOUT=${OOM_MANPAGE}
          -P ${CMAKE_SOURCE_DIR}/cmake/manpage.cmake
  DEPENDS oomlint_cli ${CMAKE_SOURCE_DIR}/cmake/manpage.cmake
  COMMENT "Generating oomlint.1 from oomlint --help")
add_custom_target(oomlint_manpage ALL DEPENDS ${OOM_MANPAGE})

install(TARGETS oomlint_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${OOM_MANPAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
set(OOM_SHELL ${CMAKE_SOURCE_DIR}/editors/shell)
install(FILES ${OOM_SHELL}/oomlint.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME oomlint)
install(FILES ${OOM_SHELL}/_oomlint DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${OOM_SHELL}/oomlint.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

set(CPACK_PACKAGE_NAME oomlint)
set(CPACK_PACKAGE_VENDOR oomlint)
set(CPACK_PACKAGE_CONTACT "oomlint maintainers <oomlint@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "find what makes PyTorch training scripts run out of memory")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# the shared libraries the binary links (the grammars are compiled in)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libtree-sitter0, libpcre2-8-0, libjansson4, libyaml-0-2")
set(CPACK_GENERATOR DEB)
include(CPack)
