# Embeds every file under rules/ (rule files and the data tables beside them)
# into the library, so an installed oomlint needs no files next to it.

file(GLOB OOM_RULE_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/rules/*.scm ${CMAKE_SOURCE_DIR}/rules/*.tsv ${CMAKE_SOURCE_DIR}/rules/*.py)
list(SORT OOM_RULE_FILES)
set(OOM_EMBEDDED_RULES_C ${CMAKE_BINARY_DIR}/generated/embedded_rules.c)
add_custom_command(
  OUTPUT ${OOM_EMBEDDED_RULES_C}
  COMMAND ${CMAKE_COMMAND} -DOUT=${OOM_EMBEDDED_RULES_C} "-DFILES=${OOM_RULE_FILES}"
          -P ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
  DEPENDS ${OOM_RULE_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
  COMMENT "Embedding rules/"
  VERBATIM)
