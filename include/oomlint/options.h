/* Options a linter is built from: which rules are on and where extra rule
 * files live. Front ends fill one from flags and configuration files. */
#ifndef OOMLINT_OPTIONS_H
#define OOMLINT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/** The GPU memory budget in bytes that OOM601 and OOM301 check the static
 *  memory estimate against (`--gpu-memory`, `gpu-memory`); 0: no budget,
 *  and the budget rules stay silent. */
void oom_options_set_gpu_memory(oom_options *self, uint64_t bytes);
uint64_t oom_options_gpu_memory(const oom_options *self);
/** The largest literal batch size OOM301 accepts (`max-batch-size`); 0: no limit. */
void oom_options_set_max_batch_size(oom_options *self, uint64_t size);
uint64_t oom_options_max_batch_size(const oom_options *self);
/** A size only the data knows, for the memory estimate: "NAME=INTEGER"
 *  (`--assume vocab_size=33278`, `assume = [...]`). Earlier ones win. */
void oom_options_add_assume(oom_options *self, const char *name_value);
size_t oom_options_assume_count(const oom_options *self);
const char *oom_options_assume(const oom_options *self, size_t index);
/** Parse a memory size: "24GiB", "80GB", "512MiB", "1.5TiB", "24Gi", or a
 *  plain number of bytes. Binary units (KiB, MiB, GiB, TiB; Ki, Mi, Gi, Ti)
 *  are powers of 1024, decimal ones (KB, MB, GB, TB; K, M, G, T) of 1000;
 *  case is ignored. False when TEXT is not such a size. */
bool oom_parse_bytes(const char *text, uint64_t *out);

/** Whether SELECTOR is well formed ("ALL", or "OOM" followed by 0-3 digits). */
bool oom_selector_is_valid(const char *selector);

#endif
