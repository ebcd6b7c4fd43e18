/* The rule engine's internal types: rules parsed from rule files, the one
 * compiled query of all of them, compiled predicates, and the objects behind
 * the public opaque types (linter, worker, document, diagnostic, fix). */
#ifndef OOM_ENGINE_ENGINE_H
#define OOM_ENGINE_ENGINE_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>
#include <tree_sitter/api.h>

#include "facts/facts.h"
#include "oomlint/oomlint.h"
#include "oomlint/project.h"
#include "project/project.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/vec.h"

/* ---- templates: "`{target}` accumulates `{value}`" ---- */

typedef struct {
  int capture;      /* -1 for literal text */
  char *name;       /* capture name, resolved to an id after the query compiles */
  const char *text; /* literal text */
  size_t len;
} tmpl_part;

typedef struct {
  tmpl_part *parts;
  size_t count;
} tmpl;

/* ---- rules ---- */

typedef enum {
  EDIT_REPLACE,
  EDIT_INSERT_BEFORE,
  EDIT_INSERT_AFTER,
  EDIT_APPEND_ARG,
  EDIT_PREPEND_ARG,
  EDIT_REMOVE_ARG,
  EDIT_REMOVE_STATEMENT,
  EDIT_APPEND_CLEAN,
  EDIT_ADD_DECORATOR,
  EDIT_DIVIDE_BY_STEPS,
  EDIT_AMP_DEVICE_USES
} edit_op;

typedef struct {
  edit_op op;
  char *capture_name;
  int capture;
  tmpl text;
} edit_spec;

struct oom_rule {
  char *code, *name, *origin;
  char *message_src, *doc, *fix_title;
  oom_severity severity;
  int fix;           /* -1: none, else an oom_applicability */
  tmpl message;
  VEC(edit_spec) edits;
  char *text;        /* the whole rule file; the query is its tail */
  size_t text_len;
  bool builtin;      /* no query: a rule the engine implements (OOM000, OOM001) */
  /* `; report: once per function`: of its diagnostics with one message in
   * one function, only the first is kept (advice about what a name holds,
   * not about each statement that fills it) */
  bool once_per_function;
  uint32_t query_offset; /* where the file starts in the combined query */
};

/** Parse rule file TEXT (from ORIGIN) into OUT. On error returns false and
 *  writes "origin:line: problem" into ERR. */
bool rulefile_parse(const char *origin, const char *text, size_t len, oom_rule *out, buf *err);
void rulefile_free(oom_rule *rule);
void tmpl_free(tmpl *t);

/* ---- predicates ---- */

typedef enum {
  PRED_EQ,
  PRED_MATCH,
  PRED_ANY_OF,
  PRED_QUALNAME,
  PRED_IN_LOOP,
  PRED_EVERY_ITERATION,
  PRED_IN_NO_GRAD,
  PRED_IN_EXCEPT,
  PRED_HAS_ARG,
  PRED_KEYWORD_ARGS_ONLY,
  PRED_SOLE_BACKWARD,
  PRED_RETAINED_UNUSED,
  PRED_FIRST_BACKWARD,
  PRED_FILE_CALLS,
  PRED_FILE_IMPORTS,
  PRED_FILE_MENTIONS,
  PRED_GRAPH,
  PRED_SCALAR_LOSS,
  PRED_OUTLIVES_ITERATION,
  PRED_STEP_STORAGE,
  PRED_NUMPY_ARRAY,
  PRED_ELEMENTS_BACKPROPAGATED,
  PRED_IN_TRAINING_LOOP,
  PRED_IN_EVAL_CONTEXT,
  PRED_IS_MODEL,
  PRED_BACKWARD_FOLLOWS,
  PRED_FROZEN,
  PRED_RESET_AFTER_BACKWARD,
  PRED_FUNCTION_TRAINS,
  PRED_FUNCTION_UPDATES,
  PRED_FILE_TRAINS,
  PRED_FILE_SCALES_LOSS,
  PRED_ARG_FROM_OUTSIDE,
  PRED_OUTLIVES_EPOCH,
  PRED_MOVES_ARG_TO_DEVICE,
  PRED_BATCHED_IN_LOOP,
  PRED_LOOP_CALLS,
  PRED_ACCUMULATES_GRADIENTS,
  PRED_DIVIDED,
  PRED_DATASET,
  PRED_SLICED_IN_LOOP,
  PRED_DATASET_ATTRIBUTE,
  PRED_KEPT_PER_ITEM,
  PRED_IN_MODULE_METHOD,
  PRED_IN_PARAMETER,
  PRED_NUMPY_FLOAT64,
  PRED_CAST_AFTER,
  PRED_DERIVES,
  PRED_IN_EVAL_FUNCTION,
  PRED_IN_METHOD,
  PRED_IN_ANY_LOOP,
  PRED_IN_MODEL_METHOD,
  PRED_IN_UNIT_TEST,
  PRED_WARM_UP,
  PRED_TIMED_LOOP,
  PRED_PROBE_LOOP,
  PRED_WRAPS_ONLY_BACKWARD,
  PRED_HANDS_MODEL,
  PRED_TO_NUMPY,
  PRED_UNTRAINED,
  PRED_HANDED_TO_LIBRARY,
  PRED_INPUT_REQUIRES_GRAD,
  PRED_RETURNED_TO_BACKWARD,
  PRED_FOREIGN_CODE,
  PRED_ARG,
  PRED_KIND,
  /* not named in rules: `#oom-in-no-grad?` compiles to these (predicates.c) */
  PRED_NO_GRAD_IN_IMPORTERS,
  PRED_IN_NO_GRAD_ANYWHERE
} pred_kind;

typedef struct {
  pred_kind kind;
  bool negate;
  int capture;     /* -1 when the predicate takes none */
  int capture2;    /* #eq? @a @b */
  char **strings;
  size_t nstrings;
  pcre2_code *re;  /* compiled once, JIT where available */
  pcre2_code *re2; /* #oom-in-method?'s class */
  long number;     /* #oom-has-arg? position, -1 if none */
  uint32_t slot;   /* file-level predicates: index of the per-document cache */
  uint32_t answer; /* index of its answer in the per-match cache of its shape's variants */
} predicate;

typedef struct {
  size_t rule;
  predicate *preds;
  size_t npreds;
  /* the next pattern of the same shape (shape.c), -1 at the end: only the
   * first of a shape stays enabled in the query, and its matches are
   * evaluated for every pattern of the chain */
  int32_t next_variant;
  uint32_t nanswers; /* the first of a shape: the distinct predicates of all its variants */
  /* a variant naming its captures otherwise than the first of its shape:
   * for each capture id of the query, the id this variant gives the node
   * the first captures under it, -1 for none; NULL when the names agree */
  int32_t *capture_map;
} pattern_info;

/** Append the shape of a pattern's query text (shape.c). */
void shape_of(const char *text, size_t len, buf *out);

/** Append SHAPE with its capture names left out, each run of captures on
 *  one node written `@`: patterns with equal unnamed shapes match the same
 *  nodes in the same steps when their captures sit on the same nodes. */
void shape_unnamed(const char *shape, size_t len, buf *out);

typedef struct {
  uint32_t run;     /* the number of the run of captures (one node's) it is in */
  const char *name; /* into the shape */
  uint32_t len;
} shape_capture;

/** The captures of SHAPE in order, at most MAX of them in OUT; their count. */
size_t shape_captures(const char *shape, size_t len, shape_capture *out, size_t max);

/** The start offsets of the top-level patterns of query TEXT, at most MAX of
 *  them in STARTS; their count. */
size_t shape_split(const char *text, size_t len, uint32_t *starts, size_t max);

/** Append a stand-in for the pattern TEXT[0..LEN) of shape SHAPE: one node
 *  with all its captures and its predicates, padded with spaces to
 *  LEN bytes; false (nothing appended) when that would be longer. */
bool shape_stub(const char *text, size_t len, const char *shape, size_t shape_len, buf *out);

/** Compile the predicates of PATTERN in QUERY; EARLIER holds the patterns
 *  before it, whose file-level cache slots it shares. */
bool predicates_compile(const TSQuery *query, uint32_t pattern, const oom_rule *rule, const pattern_info *earlier,
                        pattern_info *out, uint32_t *next_slot, buf *err);
void predicates_free(pattern_info *p);

/* The dotted names nodes resolved to in one document (#oom-qualname? and
 * #oom-file-calls? ask about the same callees again and again): an
 * open-addressing table by node id, the names in one pool. */
typedef struct {
  const void *id; /* NULL: an empty slot */
  uint32_t start, len;
  bool ok;
} qual_entry;

typedef struct {
  qual_entry *slots;
  size_t cap, used;
  buf pool;
} qual_memo;

typedef struct {
  const facts *model;
  const char *source;
  size_t length;
  pcre2_match_data *md;
  signed char *file_cache; /* per file-level predicate: -1 not asked yet, 0, 1, FILE_UNKNOWN */
  uint32_t *witness;       /* per file-level predicate found true: where (a call, a match), or
                              UINT32_MAX when it cannot say (an import); NULL: not kept */
  bool unknown;            /* a FILE_UNKNOWN answer was asked for */
  signed char *answers;    /* per distinct predicate of the match's variants: -1 unknown, 0, 1 */
  buf *tmp;
  qual_memo quals;
} pred_context;

/** Free what evaluating predicates in CTX allocated. */
void predicates_context_free(pred_context *ctx);

/** Whether A and B ask the same question (their negations aside), so that
 *  one answer on a match serves both. */
bool predicates_same_question(const predicate *a, const predicate *b);

/** Whether match M passes P's predicates; CTX->answers caches the answers
 *  on M (predicate.answer). */
bool predicates_pass(const pattern_info *p, const TSQueryMatch *m, pred_context *ctx);
/* A file-level answer a partial relint cannot give: a match that asks for
 * it makes the partial relint give up. */
#define FILE_UNKNOWN 2
/** File-level predicate P's answer (cached in CTX). */
bool predicates_file_level_answer(const predicate *p, pred_context *ctx);
/** Each file-level predicate of LINTER by its slot, in OUT[nslots]. */
void predicates_file_level_table(const oom_linter *linter, const predicate **out);
/** Whether P asks about the text itself, and TEXT has what it asks for. */
bool predicates_file_level_text(const predicate *p, const char *text, size_t length, pcre2_match_data *md);

/* ---- the linter ---- */

struct oom_options {
  VEC(char *) select, extend_select, ignore, rules_dirs, assume;
  bool select_given;
  uint64_t gpu_memory, max_batch_size; /* 0: not set (budget.c) */
};

struct oom_linter {
  VEC(oom_rule *) rules;   /* sorted by code */
  TSQuery *query;          /* all rule patterns, or NULL when none */
  pattern_info *patterns;
  uint32_t npatterns;
  uint32_t nslots;
  uint32_t max_answers;    /* the most nanswers of a shape */
  int report_capture;
  /* the node types the patterns start at (linter.c), which the run reads to
   * know which nodes of a very wide node may start a match (run.c);
   * ANY_ROOT: some pattern may start at other types too */
  TSSymbol *roots;
  uint32_t nroots;
  bool any_root;
  bool *enabled;           /* per rule, from the selection */
  const oom_rule *syntax_rule;
  const oom_rule *unused_noqa_rule;
  uint64_t gpu_memory, max_batch_size; /* from the options; 0: not set */
  VEC(char *) assume;      /* sizes the estimate takes ("NAME=N") */
  bool compiled;           /* the query and patterns are built (oom_linter_compile) */
};

struct oom_worker {
  const oom_linter *linter;
  oom_project *project; /* NULL: documents are read alone */
  TSParser *parser;
  TSQueryCursor *cursor;
  pcre2_match_data *md;
};

/* ---- documents and diagnostics ---- */

struct oom_fix {
  oom_applicability applicability;
  const char *title;
  oom_edit *edits;
  size_t nedits;
};

struct oom_diagnostic {
  const oom_rule *rule;
  const char *message;
  oom_position start, end;
  oom_fix *fix;
};

/* What the last whole-file lint of a document knew that a partial relint
 * borrows (partial.c). */
typedef struct {
  const oom_linter *linter; /* the linter it was made with; NULL: none */
  facts_seed seed;          /* heap copies of the file-wide names */
  signed char *file_cache;  /* the file-level predicates' answers */
  uint32_t *witness;        /* where each true one was found (predicates.c) */
  bool clean; /* no syntax or indentation error, NUL, bad UTF-8 or file-level noqa */
} lint_memo;

struct oom_document {
  char *path;
  /* the modules the last lint read through its worker's project */
  project_dep *deps;
  size_t ndeps;
  char *text;
  size_t length;
  TSTree *tree;
  bool tree_stale;     /* edited since the last parse: reparse with the old tree */
  bool tree_current;   /* parsed since the last edit (by a partial relint that gave up) */
  arena arena;         /* diagnostics, messages, fixes of the last lint */
  VEC(oom_diagnostic *) diagnostics;
  uint32_t *line_starts;
  uint32_t nlines;
  /* the edits since the last lint, as one span of the current text that
   * holds every changed byte, and the change in length */
  bool incremental; /* relinted as it is edited: whole-file lints keep a lint_memo */
  bool linted, dirty;
  uint32_t dirty_lo, dirty_hi;
  int64_t delta;
  lint_memo memo;
  uint32_t *cell_rows; /* a notebook's: the module row where each code cell starts */
  size_t ncells;
  uint32_t *file_rows; /* a notebook's: each module row's line in the .ipynb file */
  size_t nfile_rows;
};

/** Lint DOC again after edits, analysing only the top-level definition the
 *  edits are in, with the file-wide context of the last whole-file lint;
 *  false (DOC untouched but for its parse) when that cannot be done. */
bool partial_relint(oom_worker *worker, oom_document *doc);
/** Start VIEW, DOC's view of WORKER's project for a lint of TEXT (LENGTH
 *  bytes, parsed into ROOT); false, VIEW untouched, when there is none. */
bool document_view_begin(const oom_worker *worker, const oom_document *doc, project_view *view, TSNode root,
                         const char *text, size_t length);
/** End VIEW: DOC's dependencies become what it read, or, with MERGE (a
 *  partial relint, which reads part of the file), gain it. */
void document_view_end(oom_document *doc, project_view *view, bool merge);
/** Build DOC's line index (in its arena) for document_position. */
void document_index_lines(oom_document *doc);
/** Sort DOC's diagnostics by position, then code. */
void document_sort_diagnostics(oom_document *doc);
void lint_memo_free(lint_memo *memo);

/** Drop DOC's diagnostics and its line index (rebuilt on first use): what a
 *  lint starts with, and what the result cache starts from when it restores
 *  diagnostics, whose positions it stores. */
void document_reset_results(oom_document *doc);

/** Byte offset -> row/column, using the document's line index. */
oom_position document_position(const oom_document *doc, uint32_t byte);

/** The first node match M captured under capture id ID; false when none. */
bool engine_capture(const TSQueryMatch *m, int id, TSNode *out);

/** Run the compiled query over the document; push diagnostics. FILE_CACHE
 *  holds the file-level predicates' answers (nslots + 1 entries, -1 for not
 *  yet asked): filled in as they are asked, or given by a partial relint.
 *  WITNESS (as many entries, or NULL) gets where each true one was found.
 *  False when a match asked for a FILE_UNKNOWN answer. */
bool engine_run(const oom_linter *linter, oom_worker *worker, oom_document *doc, const facts *model,
                signed char *file_cache, uint32_t *witness);

/** Build the edits of RULE's fix for match M of QUERY. An edit belongs to
 *  the patterns that capture its target; the others skip it. Returns false
 *  (no edits: the fix is display-only) when no edit belongs to M's pattern,
 *  when a capture an edit needs is missing, or when an edit refuses. */
bool edits_build(const TSQuery *query, const oom_rule *rule, const TSQueryMatch *m, const facts *model, arena *a,
                 oom_edit **out, size_t *count);

/** Render template T with M's captures, each shortened to one line. */
char *tmpl_render(const tmpl *t, const TSQueryMatch *m, const char *source, size_t length, arena *a, bool full);

/** OOM601 and OOM301: the static memory estimate against the budget and
 *  the batch-size limit (budget.c). Silent when neither is set. */
void budget_report(const oom_linter *linter, oom_document *doc, const facts *model);

/** Apply `# noqa` and `# oomlint: noqa` comments; report unused ones.
 *  Returns whether some comment is a file-level directive. */
bool suppress_apply(const oom_linter *linter, oom_document *doc, const facts *model);

/** Whether the selection enables CODE. */
bool options_code_enabled(const oom_options *options, const char *code);

oom_diagnostic *diagnostic_new(oom_document *doc, const oom_rule *rule, const char *message, uint32_t start_byte,
                               uint32_t end_byte);

#endif
