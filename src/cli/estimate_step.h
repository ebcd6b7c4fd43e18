/* The activations table and the whole step of `oomlint estimate`, text and JSON. */
#ifndef OOM_CLI_ESTIMATE_STEP_H
#define OOM_CLI_ESTIMATE_STEP_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "estimate/estimate.h"

/** The activations lines of model M (FILE is the file's base name). */
void estimate_print_activations(FILE *out, const char *file, const estimate_model *m);
/** The whole step and, with a BUDGET, the batch that fits. */
void estimate_print_step(FILE *out, const estimate_model *m, int64_t budget);
/** activations_bytes, activations, batch_size, micro_batch, peak_bytes (and
 *  max_batch with a budget) into the model's object O. */
void estimate_step_json(json_t *o, const estimate_model *m, int64_t budget);

#endif
