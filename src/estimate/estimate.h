/* The static memory estimate of one file: the models it builds, their exact parameter
 * counts and the bytes training needs. Used by `oomlint estimate`, OOM601 and OOM301. */
#ifndef OOM_ESTIMATE_ESTIMATE_H
#define OOM_ESTIMATE_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

#include "facts/facts.h"
#include "util/arena.h"

/* what autograd keeps for backward at one place of forward(), all its calls together */
typedef struct {
  uint32_t line;       /* 1-based; of the layer's construction, or of the op */
  const char *layer;   /* "nn.Conv2d(1, 32, 3, 1)", "F.relu(x)" */
  const char *what;    /* "input 64x1x28x28 fp32 + bool mask" (of its first call) */
  int64_t repeat;      /* calls */
  int64_t bytes;       /* all calls together, each storage counted once */
} estimate_act;

/* a group of identical layers built at one place */
typedef struct {
  const char *file;    /* the module of the project it is written in; NULL: the file estimated */
  uint32_t line;       /* 1-based */
  const char *layer;   /* "nn.Linear(768, 3072)" */
  int64_t repeat;
  int64_t parameters;  /* all repeats together */
} estimate_part;

typedef struct {
  const char *name;    /* the variable it is bound to, or the class name */
  const char *klass;   /* "GPT", "nn.Sequential", "AutoModelForCausalLM" */
  uint32_t line;       /* where it is built, 1-based */
  const char *file;    /* built inside another module of the project and never returned to the script: that module (LINE is there); else NULL */
  uint32_t start, end; /* the bytes of the call that builds it (0, 0: not in the script) */
  int64_t parameters, trainable;
  const char *dtype;   /* "float32", "bfloat16", "float16", "int8", "4-bit", "mixed" */
  const char *optimizer; /* "AdamW", "SGD (momentum)", NULL when none is found */
  int64_t weights_bytes, gradients_bytes, optimizer_bytes;
  int64_t input_bytes; /* -1: not known */
  int64_t total_bytes; /* weights + gradients + optimizer state (+ input batch when known) */
  /* the inputs of the advice: bytes per parameter of the weights (average,
   * in eighths of a byte) and optimizer state bytes per trainable parameter */
  int64_t weight_bits_total;
  int optimizer_state_bytes_per_param; /* -1 when the optimizer's state size is not known */
  bool sharded;        /* FSDP / DeepSpeed in the file */
  bool built;          /* built by the file (not a class it only defines) */
  estimate_part *parts;
  uint32_t nparts;
  const char **unknown;
  uint32_t nunknown;
  const char **notes;  /* tied weights and other remarks for the text table */
  uint32_t nnotes;
  /* ---- activations and the whole step (activations.c, step.c) ---- */
  int64_t activations_bytes;   /* kept for backward by one forward + loss; -1 not known */
  int64_t activations_partial; /* what was counted before something unknown */
  int64_t activations_input;   /* the input batch's bytes among them (kept by the first layer) */
  const char *act_why;         /* why activations_bytes is not known */
  estimate_act *acts;
  uint32_t nacts;
  int act_bits;                /* autocast bits during the forward counted, 0 none */
  bool checkpointed;           /* torch.utils.checkpoint in the forward */
  int64_t recompute_bytes;     /* the largest checkpointed segment, rebuilt during backward */
  int64_t transient_bytes;     /* the loss's input gradient (fp32), alive with all activations as backward starts */
  bool grads_resident;         /* zero_grad(set_to_none=False): gradients stay through the forward */
  int64_t micro_batch;         /* the leading dimension of the forward counted; -1 */
  int64_t accumulation;        /* gradient accumulation steps found, 1 when none */
  int64_t batch_size;          /* micro_batch x accumulation; -1 */
  int64_t world_size;          /* sharding: weights, gradients and state divided by it; 1 */
  int64_t peak_bytes;          /* the whole step; -1 when activations are not known */
} estimate_model;

/* a batch size written in the file */
typedef struct {
  int64_t size;
  bool literal;        /* an integer literal of this file (flaggable by OOM301) */
  uint32_t start, end; /* the literal's bytes */
  const char *where;   /* "DataLoader batch_size", "per_device_train_batch_size", "torch.randn leading dimension" */
  int64_t input_bytes; /* one batch, -1 when the sample shape is not known */
  int model;           /* index of the model it feeds, -1 */
} estimate_batch;

typedef struct {
  arena arena;         /* everything below */
  estimate_model *models;
  uint32_t nmodels;
  estimate_batch *batches;
  uint32_t nbatches;
  const char **unknown; /* about the file, not one model */
  uint32_t nunknown;
} estimate_result;

/* What a run knows of the script beyond its text: how it is started and
 * the files next to it. Every member may be zero. */
typedef struct {
  const char *path;            /* the script (relative to the working folder or absolute); NULL: read alone */
  const char *const *argv;     /* the script's own arguments (`oomlint estimate train.py -- --bs 8`) */
  int argc;
  const char *const *assume;   /* sizes only the data knows: "vocab_size=33278" */
  int nassume;
  /** Read the file at PATH (as the script would open it, relative to the
   *  working folder or absolute): malloc'd text and its length, or NULL. */
  char *(*read)(void *ctx, const char *path, size_t *length);
  void *ctx;
  /** Whether a file or folder is at PATH (os.path.exists); NULL: what READ reads. */
  bool (*exists)(void *ctx, const char *path);
} estimate_input;

/** Estimate the models of the file whose facts are F. OUT is freed with
 *  estimate_free. Never fails: what cannot be derived is listed as unknown. */
void estimate_run(const facts *f, estimate_result *out);
/** Like estimate_run, with the script's command line, assumed sizes and
 *  files (IN may be NULL); the modules of its project are read through
 *  F's imports when they can give their source. */
void estimate_run_with(const facts *f, const estimate_input *in, estimate_result *out);
/** Whether "NAME=VALUE" is an assumption the estimate takes (VALUE an integer). */
bool estimate_assume_valid(const char *s);
void estimate_free(estimate_result *r);

/* ---- the whole step (step.c) ---- */

/** Fill M's peak_bytes and batch_size from its parts: weights and optimizer
 *  state (divided by world_size), the input batch not among the activations,
 *  and the larger of two moments: backward's start (activations, the largest
 *  checkpointed segment rebuilt, the loss's input gradient, and gradients only
 *  when they stay resident) and its end (all gradients). */
void estimate_step(estimate_model *m);
/** The largest micro-batch whose whole step fits BUDGET bytes, activations and
 *  input scaled linearly from M's micro-batch; 0 when none fits, -1 when
 *  activations are not known. */
int64_t estimate_max_batch(const estimate_model *m, int64_t budget);
/** The whole step of M at a micro-batch of BATCH, scaled linearly from the
 *  one counted; -1 when activations are not known. */
int64_t estimate_step_at(const estimate_model *m, int64_t batch);

/* ---- the advice of OOM601 (advice.c) ---- */

typedef struct {
  const char *change;  /* "bf16 weights (`model.to(torch.bfloat16)`)" */
  int64_t saving;      /* bytes */
  int64_t after;       /* total bytes after the change */
} estimate_change;

/** The cheapest changes that bring M under BUDGET bytes, cheapest first, at
 *  most MAX. Returns how many were written. */
uint32_t estimate_advice(const estimate_model *m, int64_t budget, estimate_change *out, uint32_t max, arena *a);

/* ---- formatting (advice.c) ---- */

/** "1,234,567" into OUT (at least 32 bytes). */
const char *estimate_count(int64_t n, char *out, size_t size);
/** "1.50 GiB", "512 MiB", "980 B" into OUT (at least 32 bytes). */
const char *estimate_bytes(int64_t n, char *out, size_t size);

/* ---- the pretrained table (pretrained.c) ---- */

/** The published parameter count of checkpoint NAME ("gpt2",
 *  "meta-llama/Llama-2-7b-hf", "resnet50"), or -1. *SOURCE gets the citation. */
int64_t estimate_pretrained(const char *name, size_t len, const char **source, size_t *source_len);
/** Like estimate_pretrained, with what one class of the classifier head adds
 *  in *PER_CLASS (-1 when the table does not say). */
int64_t estimate_pretrained_row(const char *name, size_t len, const char **source, size_t *source_len, int64_t *per_class);

#endif
