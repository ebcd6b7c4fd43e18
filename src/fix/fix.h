/* The fixer: applying the edits of diagnostics' fixes to a document's text in
 * bounded passes that never leave a file parsing worse, and unified diffs. */
#ifndef OOM_FIX_FIX_H
#define OOM_FIX_FIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "oomlint/oomlint.h"
#include "util/buf.h"
#include "util/vec.h"

/* Re-lint and apply again until nothing changes, but never more often: a
 * rule whose fix re-creates its own finding must not loop forever. */
#define FIX_MAX_PASSES 10

/** Whether D's fix has edits and is applied at LEVEL (OOM_FIX_SAFE: safe
 *  fixes only; OOM_FIX_UNSAFE: safe and unsafe ones). */
bool fix_applicable(const oom_diagnostic *d, oom_applicability level);

/* ---- one pass ---- */

/** One fix chosen for a pass: the diagnostic it came from and its edits. */
typedef struct {
  const oom_diagnostic *diag;
  const oom_edit *edits;
  size_t nedits;
  size_t same_as; /* index of an identical earlier fix, or SIZE_MAX */
} fix_choice;

typedef VEC(fix_choice) fix_choices;

/** A fix that must not be chosen again: its code and where its first edit
 *  starts, kept up to date as passes move the text. */
typedef struct {
  const oom_rule *rule;
  uint32_t start;
} fix_block;

typedef VEC(fix_block) fix_blocks;

/** Choose the fixes of DOC's diagnostics applicable at LEVEL that can go into
 *  one pass: sorted by position, each starting after the previous one ends
 *  (touching or overlapping ones wait for the next pass), none in BLOCKED,
 *  none touching a UTF-8 BOM or the encoding declaration. */
void fix_choose(const oom_document *doc, oom_applicability level, const fix_blocks *blocked, fix_choices *out);

/** TEXT with the chosen fixes whose KEEP flag is set (NULL: all) applied, in
 *  one pass; malloc'd, length in *NEW_LEN. Every `\n` an edit inserts (not
 *  already after a `\r`) becomes EOL, the text's line ending. */
char *fix_render(const char *text, size_t len, const fix_choices *choices, const bool *keep, const char *eol,
                 size_t *new_len);

/** One pass over DOC (already linted): TEXT with every fix chosen at LEVEL
 *  applied, malloc'd; NULL when none applies. */
char *fix_apply(const char *text, size_t len, const oom_document *doc, oom_applicability level, size_t *new_len);

/** The line ending of TEXT: `\r\n` or `\n` as its first `\n` is, and `\r`
 *  where it has no `\n` but a `\r` (old Mac files); `\n` where it has
 *  neither. A stray lone `\r` in a `\n` file does not count. */
const char *fix_text_line_ending(const char *text, size_t len);

/* ---- the whole loop ---- */

/** How many fixes of one rule were applied. */
typedef struct {
  const oom_rule *rule;
  size_t count;
} fix_count;

/** A fix that was not applied because the text would parse worse with it. */
typedef struct {
  const oom_rule *rule;
  uint32_t row, column; /* 1-based; the column in code points */
} fix_drop;

typedef struct {
  oom_document *doc;      /* the fixed text, linted: what remains to report */
  bool changed;           /* the text differs from the input */
  size_t fixed;           /* fixes applied, over every pass */
  unsigned passes;        /* passes that changed the text */
  bool converged;         /* false when FIX_MAX_PASSES ran out first */
  VEC(fix_count) per_rule; /* in the order the rules' fixes were first applied */
  VEC(fix_drop) dropped;
} fix_result;

/** Suppression the linter does not know about (the configuration's
 *  per-file ignores): DROP removes from a freshly linted document the
 *  diagnostics that are not to be reported, so they are not fixed either. */
typedef struct {
  void (*drop)(const void *ctx, oom_document *doc);
  const void *ctx;
} fix_filter;

/** Lint TEXT (PATH names it in diagnostics) with WORKER and apply the fixes
 *  applicable at LEVEL in passes (at most FIX_MAX_PASSES), re-linting between
 *  passes; after each lint FILTER (NULL: none) drops what is suppressed, so
 *  only diagnostics that would be reported are fixed. A pass whose text
 *  would have more syntax problems (see fix_count_errors) than its input
 *  keeps only the fixes that add none; a fix that adds some on its own is
 *  dropped and listed in OUT->dropped. Free OUT with fix_result_free. */
void fix_document(oom_worker *worker, const char *path, const char *text, size_t len, oom_applicability level,
                  const fix_filter *filter, fix_result *out);
void fix_result_free(fix_result *self);

/** The syntax problems under ROOT: ERROR and MISSING nodes, and blocks with
 *  no statement (which tree-sitter accepts and Python refuses). Iterative. */
size_t fix_count_errors(TSNode root);

/* ---- diffs ---- */

/** Append to OUT a unified diff (`--- a/PATH`, `+++ b/PATH`, hunks with three
 *  lines of context) from OLD to NEW. Returns false when they are equal. */
bool fix_diff(buf *out, const char *path, const char *old, size_t old_len, const char *new_text, size_t new_len);

#endif
