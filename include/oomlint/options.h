/* Options a linter is built from: which rules are on and where extra rule
 * files live. Front ends fill one from flags and configuration files. */
#ifndef OOMLINT_OPTIONS_H
#define OOMLINT_OPTIONS_H

#include <stdbool.h>

typedef struct oom_options oom_options;

/** A new option set: every rule selected, no extra rule folders. */
oom_options *oom_options_new(void);
void oom_options_free(oom_options *self);

/** Replace the selection with SELECTOR (a code, a prefix such as "OOM5", or
 *  "ALL"). Called repeatedly, the selectors accumulate. */
void oom_options_select(oom_options *self, const char *selector);
/** Add to the selection without replacing the default. */
void oom_options_extend_select(oom_options *self, const char *selector);
/** Turn off the rules SELECTOR names. The more specific selector wins; on a
 *  tie, ignore wins (Ruff's rule). */
void oom_options_ignore(oom_options *self, const char *selector);
/** Load every `*.scm` rule file in DIR in addition to the built-in rules. */
void oom_options_add_rules_dir(oom_options *self, const char *dir);

/** Whether SELECTOR is well formed ("ALL", or "OOM" followed by 0-3 digits). */
bool oom_selector_is_valid(const char *selector);

#endif
