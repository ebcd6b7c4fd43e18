/* The linter: the compiled rule set. Immutable once built, so one linter is
 * shared by every thread; each thread lints through its own oom_worker. */
#ifndef OOMLINT_LINTER_H
#define OOMLINT_LINTER_H

#include <stddef.h>
#include "oomlint/options.h"

typedef struct oom_linter oom_linter;
typedef struct oom_worker oom_worker;
typedef struct oom_rule oom_rule;

typedef enum { OOM_SEVERITY_INFO, OOM_SEVERITY_WARNING, OOM_SEVERITY_ERROR } oom_severity;

/** Build a linter from OPTIONS (NULL: defaults). On failure returns NULL and
 *  sets *ERROR to a malloc'd message naming the file, line and problem. */
oom_linter *oom_linter_new(const oom_options *options, char **error);
void oom_linter_free(oom_linter *self);

/** The first half of oom_linter_new: the rules loaded and selected, their
 *  patterns not yet compiled. Enough to look rules up, list them and give a
 *  document cached results, without the cost of compiling the patterns
 *  (about 0.2 s for the built-in rules), which a run served wholly from a
 *  cache never needs. Lint only after oom_linter_compile succeeded, and
 *  share the linter between threads only after that. */
oom_linter *oom_linter_load(const oom_options *options, char **error);
/** Compile the patterns of a linter from oom_linter_load; true at once when
 *  done already. On failure returns false and sets *ERROR as
 *  oom_linter_new does; the linter can then only be freed. */
int oom_linter_compile(oom_linter *self, char **error);

/** Every loaded rule, sorted by code. */
size_t oom_linter_rule_count(const oom_linter *self);
const oom_rule *oom_linter_rule(const oom_linter *self, size_t index);
/** The rule with CODE, or NULL. */
const oom_rule *oom_linter_find_rule(const oom_linter *self, const char *code);
/** Whether the options select the rule. */
int oom_linter_rule_enabled(const oom_linter *self, const oom_rule *rule);
/** The predicates rules can use, as Markdown (malloc'd: the caller frees). */
char *oom_linter_predicates_doc(void);

const char *oom_rule_code(const oom_rule *self);
const char *oom_rule_name(const oom_rule *self);
oom_severity oom_rule_severity(const oom_rule *self);
/** The message template, with `{capture}` placeholders. */
const char *oom_rule_message(const oom_rule *self);
/** The Markdown doc (What it does, Why is this bad?, ...). */
const char *oom_rule_doc(const oom_rule *self);
/** "safe", "unsafe", "display" or NULL when the rule has no fix. */
const char *oom_rule_fix_applicability(const oom_rule *self);
const char *oom_rule_fix_title(const oom_rule *self);
/** Where the rule came from: "rules/OOM101-graph-accumulated.scm" for built-in
 *  rules, the file's path for --rules-dir ones. */
const char *oom_rule_origin(const oom_rule *self);

const char *oom_severity_name(oom_severity severity);

/** Per-thread lint state (parser, query cursor). Not shareable. */
oom_worker *oom_worker_new(const oom_linter *linter);
void oom_worker_free(oom_worker *self);

#endif
