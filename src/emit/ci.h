/* The CI emitters (SARIF 2.1.0, GitLab Code Quality, JUnit XML): each keeps
 * what it needs of every document and writes one report at the end. */
#ifndef OOM_EMIT_CI_H
#define OOM_EMIT_CI_H

#include <stdio.h>

#include "emit/emit.h"

typedef struct ci_state ci_state;

ci_state *emit__ci_begin(FILE *out, emit_format format);
void emit__ci_document(ci_state *self, const oom_document *doc);
/** Write the report; LINTER (may be NULL) lists the rules SARIF describes. */
void emit__ci_end(ci_state *self, const oom_linter *linter);

/* helpers shared by the CI emitters (ci.c) */
typedef struct {
  uint32_t line, column; /* 1-based, column in code points; a notebook's: in its cell */
  uint32_t cell;         /* a notebook's 1-based code cell; 0 for a Python file */
  uint32_t file_line;    /* 1-based: the line of the file (a notebook's JSON) that holds it */
} ci_point;
ci_point emit__ci_point(const oom_document *doc, uint32_t byte);
/** The source line holding BYTE (without its newline). */
const char *emit__ci_line(const oom_document *doc, uint32_t byte, size_t *length);
/** A UTF-8-clean copy of S as a jansson string (a json_t *). */
void *emit__ci_jstr(const char *s);

#endif
