/* The estimate's interpreter: a small evaluator of the Python model files are made of,
 * whose values know nn layers, parameters, optimizers and loaders. Internal to src/estimate. */
#ifndef OOM_ESTIMATE_INTERP_H
#define OOM_ESTIMATE_INTERP_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "estimate/estimate.h"
#include "facts/facts.h"
#include "util/arena.h"
#include "util/buf.h"

/* arena-backed growable arrays: everything of a run is freed at once */
#define AVEC(T) struct { T *items; uint32_t len, cap; }
#define avec_push(a, v, x)                                                              \
  do {                                                                                  \
    if ((v)->len == (v)->cap) avec__grow((a), (void **)&(v)->items, &(v)->cap, sizeof *(v)->items); \
    (v)->items[(v)->len++] = (x);                                                       \
  } while (0)
void avec__grow(arena *a, void **items, uint32_t *cap, size_t size);

/* limits that keep a run short on any input */
#define EST_MAX_STEPS 500000L /* statements and expressions evaluated */
/* what building one layer counts against EST_MAX_STEPS: it formats the
 * layer's description and arguments, dozens of steps' work, and a file that
 * builds modules inside modules' comprehensions builds them by the million */
#define EST_LAYER_STEPS 32
#define EST_MAX_DEPTH 200      /* nested evaluation (calls, expressions) */
#define EST_MAX_ITER 100000    /* iterations of one loop */
#define EST_MAX_WHILE 10000    /* iterations of one while loop */
#define EST_IDLE_ITER 1024     /* iterations followed while a loop builds nothing */
#define EST_IDLE_STEPS 20000L  /* steps a loop may spend while it builds nothing (a training loop) */
#define EST_MAX_DIMS 8
#define EST_MAX_DICT 4096      /* entries of a dictionary (lookups are linear) */

typedef struct { const char *s; uint32_t n; } str;

typedef enum {
  V_UNKNOWN, V_NONE, V_BOOL, V_INT, V_FLOAT, V_STR,
  V_LIST, V_TUPLE, V_DICT,
  V_OBJECT,   /* an instance: of a class of the file, an nn layer, an optimizer ... */
  V_CLASS,    /* a class of the file */
  V_FUNCTION, /* a function or lambda of the file, maybe bound to self */
  V_EXTERN,   /* an imported name: torch.nn.Linear, torch.float16 */
  V_METHOD,   /* a built-in method bound to a value: xs.append */
  V_PARAM,    /* a parameter tensor */
  V_TENSOR,   /* a tensor of known (maybe partly known) shape */
  V_ITER,     /* model.parameters(), .modules(), .named_parameters() ... */
  V_PARTIAL,  /* functools.partial */
  V_FIELD,    /* dataclasses.field(...) */
  V_SUPER     /* super(): the methods after a class in self's bases */
} vkind;

typedef struct value value;
typedef struct obj obj;
typedef struct klass klass;
typedef struct scope scope;
typedef struct param param;

/* MORE: code that may or may not run (a loop over a file's lines) appended items like
 * this one, how many is not known; ITEMS are those known to be there */
typedef struct { AVEC(value *) items; uint32_t birth; value *more; } seq;
typedef struct { AVEC(value *) keys; AVEC(value *) vals; uint32_t birth; scope *live; } dict;
/* LIVE: globals() of a module, whose entries set are its names */

typedef struct {
  int ndim;                    /* -1: not known */
  int64_t dims[EST_MAX_DIMS];  /* -1: that dimension is not known */
  int bits;                    /* per element; EST_BITS_UNKNOWN: the dtype is not known */
} shape;

/* a tensor made from Python values the estimate does not know (torch.tensor(ids)):
 * its dtype is set later (`.type(torch.int64)`, `.long()`) or stays unknown */
#define EST_BITS_UNKNOWN (-1)

enum { ITER_PARAMETERS, ITER_NAMED_PARAMETERS, ITER_MODULES, ITER_NAMED_MODULES, ITER_CHILDREN, ITER_NAMED_CHILDREN };

enum { FN_PLAIN, FN_STATIC, FN_CLASS, FN_PROPERTY };

struct value {
  vkind kind;
  union {
    bool b;
    int64_t i;
    double f;
    str s;
    seq *seq;
    dict *dict;
    obj *obj;
    klass *klass;
    struct { TSNode node; scope *closure; value *self; klass *owner; uint8_t flavor; } fn;
    const char *ext;
    struct { value *self; const char *name; } method;
    param *param;
    shape *tensor;
    struct { obj *module; int what; } iter;
    struct { value *fn; seq *args; dict *kw; } partial;
    struct { value *dflt, *factory; } field;
    struct { value *self; klass *after; } sup;
  } u;
  const char *why; /* V_UNKNOWN: the first reason */
  int64_t at_most; /* V_UNKNOWN: a bound it never exceeds (`min(bptt, n - i)`), 0 none */
  TSNode origin;   /* V_INT read from an integer literal: that literal */
  TSNode dim0;     /* V_TENSOR: the literal of its leading dimension */
};

struct param {
  int64_t count;
  shape sh;        /* sh.ndim -1 for pretrained blocks */
  int bits;        /* of one element: 32, 16, 8, 4 */
  const char *dtype; /* "float32", "bfloat16", "int8", "4-bit" ... */
  bool trainable;
  obj *owner;      /* the layer that made it; NULL for nn.Parameter */
  TSNode site;
  const char *label;
  uint32_t birth;
};

typedef enum { OBJ_PLAIN, OBJ_MODULE, OBJ_OPTIMIZER, OBJ_LOADER, OBJ_DATASET, OBJ_EXTERN } obj_kind;

struct obj {
  obj_kind kind;
  klass *klass;       /* a class of the file, or NULL */
  const char *type;   /* shown: "GPT", "nn.Linear", "AutoModelForCausalLM" */
  const char *qual;   /* the external class: "torch.nn.Linear", "accelerate.Accelerator" */
  dict *attrs;        /* instance attributes; registered children are modules/params among them */
  seq *items;         /* Sequential / ModuleList / ParameterList children */
  seq *args;          /* OBJ_EXTERN: positional arguments of the constructor */
  TSNode site;
  TSNode call_site;   /* built in another module: the script's call that returned it */
  const char *label;  /* layers: the constructor as the table shows it */
  AVEC(const char *) unknowns;
  bool layer;         /* an nn layer with parameters made by formula */
  bool prototype;     /* copied by a container: not part of a model itself */
  bool named;         /* bound to a variable name at some point */
  bool child;         /* registered in another module */
  bool name_global;   /* named at module level: the name a reader knows it by */
  bool defined_only;  /* a class of the file built by the estimate with its defaults */
  const char *name;
  uint32_t birth;
  /* OBJ_OPTIMIZER */
  const char *opt_name;
  int opt_states;     /* moments per parameter, in the parameter's dtype */
  int opt_fixed_bytes;/* or a fixed size per parameter (8-bit optimizers); -1 not known */
  obj *opt_module;
  param *opt_param;
  AVEC(param *) opt_params; /* every parameter given in a list: several models' (`list(a.parameters()) + list(b.parameters())`) */
  /* OBJ_LOADER */
  value *batch_size;
  value *dataset;
  value *item;        /* a dataset of the project: what its __getitem__ returned, NULL when not one */
  TSNode getitem;     /* that __getitem__ */
  /* OBJ_DATASET: one sample */
  AVEC(shape *) sample;
  bool sample_known;
  /* OBJ_MODULE */
  int64_t input_bytes; /* -1 */
  obj *optimizer;     /* attached by a trainer */
  bool sharded;
  const struct args *ctor; /* nn layers: the constructor's arguments (kernel sizes, p, dims) */
};

struct klass {
  str name;
  TSNode node;
  AVEC(value *) bases;
  dict *attrs;
  bool is_module, dataclass;
  AVEC(str) fields;   /* dataclass fields, in order */
  dict *defaults;     /* dataclass field -> default value */
};

typedef struct { str name; value *v; } var;

struct scope {
  AVEC(var) vars;
  AVEC(str) globals; /* names declared `global` here */
  scope *parent;     /* the defining function's scope (closures); NULL at module level */
  klass *klass;      /* a class body */
  klass *owner;      /* the class of the method running here (for super()) */
  value *self;       /* the instance a method runs for */
  value *ret;        /* the value a `return` gave */
  bool returned;     /* a tentative branch may have returned */
};

typedef enum { FLOW_NORMAL, FLOW_RETURN, FLOW_BREAK, FLOW_CONTINUE, FLOW_RAISE, FLOW_STOP } flow;

typedef struct { obj *owner; const char *text; uint32_t line; } tie_note;
typedef struct { const char *text; obj *module; } loose_note;

typedef struct {
  value *size;
  const char *where;
  int64_t input_bytes;
  obj *module;
  TSNode site;
} batch_note;

/* A module the run reads: the script, a module of its project it imports,
 * or code it exec()s. A node knows its tree, and its tree its module. */
typedef struct est_module {
  const TSTree *tree;
  const char *src;
  size_t len;
  const char *path;   /* absolute; NULL for the script itself */
  const char *shown;  /* "model.py" */
  const facts *f;
  facts own;          /* F, for the modules read by the run */
  TSTree *own_tree;
  scope *globals;
  value *value;       /* the module object: its names as attributes */
  bool loading;
} est_module;

typedef struct { const char *text; const char *path; } read_note;

/* a construct the step budget was spent on, to explain a stop */
typedef struct { TSNode node; long steps_at; } spend;

typedef struct interp {
  const facts *f;
  const char *src;
  size_t len;
  arena *a;
  scope *globals;
  long steps;
  int depth;
  bool stopped;
  uint32_t birth;           /* a counter: every mutable thing records when it was made */
  AVEC(uint32_t) tentative; /* births at the start of each undecided region */
  AVEC(obj *) modules;      /* every module made, in order */
  AVEC(obj *) optimizers;
  AVEC(obj *) building;     /* modules whose __init__ is running */
  AVEC(tie_note) ties;
  AVEC(loose_note) loose;   /* unknowns about the file (or a module, when known) */
  AVEC(batch_note) batches;
  int default_bits;
  const char *default_dtype;
  bool sharded;
  value *unknown;           /* a shared unknown without reason */
  value *none;
  struct act_state *act;    /* activations.c: the forward passes followed */
  buf tmp;
  /* the script as it runs (script.c) */
  const estimate_input *in;
  const TSTree *main_tree;
  AVEC(est_module *) mods;
  AVEC(read_note) reads;
  TSParser *parser;
  AVEC(spend) open;         /* loops and calls under way */
  TSNode stop_site;         /* the construct under way when the budget ran out */
  TSNode top;               /* the statement under way outside any loop or call */
  TSNode stop_inner;
  value **ints;             /* range()'s integers 0..EST_MAX_ITER, made once and shared (never changed) */
  int in_getitem;           /* a dataset's __getitem__ is running for a DataLoader's sample (data.c) */
  var *keep;                /* names as they were before an undecided `if` (exec.c) */
  uint32_t nkeep;
  /* each branch of that `if`: the names as it left them (exec.c), and whether
   * an else makes the branches every path */
  var **paths;
  uint32_t *npath;
  uint32_t npaths;
  bool paths_all;
} interp;

/* ---- values (value.c) ---- */
value *v_new(interp *st, vkind kind);
value *v_unknown(interp *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
value *v_int(interp *st, int64_t i);
value *v_float(interp *st, double f);
value *v_bool(interp *st, bool b);
value *v_str(interp *st, const char *s, uint32_t n);
value *v_extern(interp *st, const char *qual);
value *v_list(interp *st, vkind kind);
value *v_dict(interp *st);
value *v_obj(interp *st, obj *o);
obj *obj_new(interp *st, obj_kind kind, const char *type);
param *param_new(interp *st, const shape *sh, int64_t count, obj *owner, TSNode site, const char *label);
shape *shape_new(interp *st, int ndim);
seq *seq_new(interp *st);
dict *dict_new(interp *st);
/** true: known truth in *OUT */
bool v_truth(const value *v, bool *out);
/** true: an integer (bools count) in *OUT */
bool v_as_int(const value *v, int64_t *out);
bool v_as_num(const value *v, double *out);
bool v_is_str(const value *v, const char *s);
/** -1 not known, 0 different, 1 equal */
int v_equal(const value *a, const value *b);
value *dict_get(const dict *d, const value *key);
value *dict_get_str(const dict *d, const char *key, size_t n);
void dict_set(interp *st, dict *d, value *key, value *val);
void dict_set_str(interp *st, dict *d, const char *key, value *val);
bool dict_del_str(dict *d, const char *key, size_t n);
/** Render V for a layer label: 768, (3, 3), True, 'gelu', ? */
void v_render(const value *v, buf *out);
const char *v_kind_name(const value *v);
/** The items of an iterable, materialized (NULL when not known). */
seq *v_iterate(interp *st, value *v);
/** The next birth, and whether a thing born at BIRTH may change now. */
uint32_t st_birth(interp *st);
bool st_may_mutate(interp *st, uint32_t birth);
/** Record that an undecided region wanted to change something. */
void st_blocked(interp *st, TSNode where, const char *what);
/** Record something not counted ("line N: " + FMT with DETAIL), about the
 *  module being built, or the file. */
void st_note(interp *st, TSNode where, const char *fmt, const char *detail);
const char *st_text(interp *st, TSNode n, uint32_t *len);
char *st_strdup(interp *st, const char *s, size_t n);
uint32_t st_line(interp *st, TSNode n);
/** Where N is, as the notes say it: "line 12" in the script, "model.py:12" in another module. */
const char *st_at(interp *st, TSNode n);
bool st_step(interp *st);

/* ---- statements (exec.c) ---- */
flow exec_block(interp *st, scope *sc, TSNode block);
void scope_set(interp *st, scope *sc, const char *name, uint32_t n, value *v);
value *scope_get(interp *st, scope *sc, const char *name, uint32_t n);
scope *scope_new(interp *st, scope *parent);
/** Bind V to the assignment target TARGET. */
void assign_target(interp *st, scope *sc, TSNode target, value *v);

/* ---- expressions (eval.c) ---- */
value *eval(interp *st, scope *sc, TSNode n);
value *eval_binary(interp *st, const char *op, value *l, value *r);
value *get_attr(interp *st, value *v, const char *name, uint32_t n);
void set_attr(interp *st, value *target, const char *name, uint32_t n, value *v, TSNode where);

/* ---- calls (call.c) ---- */
typedef struct args {
  AVEC(value *) pos;
  AVEC(str) kwnames;
  AVEC(value *) kwvals;
  bool opaque; /* *args or **kwargs that could not be expanded */
  TSNode node; /* the call */
} args;
value *call_value(interp *st, value *fn, args *a);
value *arg_get(const args *a, int pos, const char *kw);
void args_add_kw(interp *st, args *a, const char *name, value *v);
value *call_method(interp *st, value *self, const char *name, args *a);
value *instantiate(interp *st, klass *k, args *a);
value *class_attr(interp *st, klass *k, const char *name, uint32_t n, klass **found);
bool class_derives(const klass *k, const klass *base);

/* ---- torch and friends (torch.c) ---- */
value *torch_call(interp *st, const char *qual, args *a);
value *torch_module_method(interp *st, value *self, obj *m, const char *name, args *a);
value *torch_module_attr(interp *st, obj *m, const char *name, uint32_t n);
void module_params(interp *st, obj *m, void (*visit)(void *ctx, param *p, const char *path), void *ctx);
void module_each(interp *st, obj *m, void (*visit)(void *ctx, obj *child, const char *path), void *ctx);
/** The bits and name of dtype S ("torch.bfloat16", "float16", "torch.half"); false if S is none. */
bool torch_dtype(const char *s, size_t n, int *bits, const char **name);
/** The items model.parameters() / .modules() ... gives. */
seq *torch_iter_items(interp *st, value *it);
/** Tensor and parameter methods: numel, dim, size, requires_grad_, half ... */
value *torch_tensor_method(interp *st, value *self, const char *name, args *a);
/** Methods of objects made by library constructors (Accelerator.prepare ...). */
value *torch_extern_method(interp *st, value *self, const char *name, args *a);
value *deep_copy(interp *st, value *v);
void module_record_input(interp *st, obj *m, args *a);

/* ---- the script as it runs (script.c) ---- */
/** The module node N is written in (the script's own when not known). */
est_module *st_module_of(interp *st, TSNode n);
/** QUAL imported at AT from a module of the project: its value, or NULL. */
value *script_import(interp *st, TSNode at, const char *qual, bool whole);
/** argparse, os.path, os.environ, sys, ast.literal_eval, json, open(): NULL when not one of them. */
value *script_call(interp *st, const char *qual, args *a);
/** A torchvision builder the zoo (rules/zoo.py) defines, called with A; NULL when it has none. */
value *script_zoo(interp *st, const char *qual, args *a);
/** Methods of argparse parsers and opened files: NULL when SELF is neither. */
value *script_method(interp *st, value *self, const char *name, args *a);
/** The value of the library name QUAL (sys.argv), or NULL. */
value *script_attr(interp *st, const char *qual);
/** exec(code) and globals() in scope SC; NULL when FN is neither. */
value *script_builtin(interp *st, scope *sc, const char *fn, args *a);
/** V (unknown), no longer the size its name says: `features.shape[1]` of
 *  an unknown `features` keeps the cause, not the --assume of `features`. */
value *script_unnamed(interp *st, value *v);
/** The script's files (script.c): the text of the file at PATHV, and whether V is an opened file. */
value *script_read(interp *st, value *pathv, TSNode where);
bool script_is_file(const value *v);
/** argparse.c: parsers, their methods (NULL when SELF is none), tyro.cli, sys.argv. */
value *argparse_call(interp *st, const char *qual, args *a);
value *argparse_method(interp *st, value *self, const char *name, args *a);
value *script_argv(interp *st, bool with_name);
/** envs.c: gym environments and their spaces, NumPy products of shapes. */
value *envs_call(interp *st, const char *qual, args *a);
/** A method of a library object of RL scripts (a replay buffer's sample()), NULL when SELF is none. */
value *envs_method(interp *st, value *self, const char *name, args *a);
bool script_is_env(const value *v);
/** formats.c: JSON and YAML texts, ast.literal_eval (NULL: not a literal). */
value *format_json(interp *st, value *text);
value *format_yaml(interp *st, value *text);
value *format_literal(interp *st, value *s);
/** The first cause of unknown V's reason, without the names it went
 *  through: its text and length in *LEN. */
const char *script_cause(const value *v, int *len);
/** O, an instance of a class of the project deriving a gym wrapper, built
 *  with A: the spaces of the environment it wraps. */
void script_wrapped_env(interp *st, obj *o, args *a);
/** An assumed size for NAME (--assume NAME=VALUE), or NULL. */
value *script_assumed(interp *st, const char *name, uint32_t n);
void script_free(interp *st);

/* ---- a project's datasets and the images they load (data.c) ---- */
/** PIL.Image.open, random_split, Subset: NULL when QUAL is none of them. */
value *data_call(interp *st, const char *qual, args *a);
/** A PIL image's methods (convert, split, resize, copy): NULL when SELF is not an image. */
value *data_image_method(interp *st, value *self, const char *name, args *a);
bool data_is_image(const value *v);
/** An image's bands, height and width (-1 where not known). */
void data_image_dims(const value *img, int64_t *c, int64_t *h, int64_t *w);
/** IMG as a transform left it: C bands of H x W (-1: not known). */
value *data_image_of(interp *st, const value *img, int64_t c, int64_t h, int64_t w, TSNode site);
/** The sample a dataset of the project gives (its __getitem__ run once), NULL when DS is not one. */
value *data_sample(interp *st, value *ds, TSNode site);
/** A batch of BATCH_SIZE samples like SAMPLE, as default_collate makes it; GETITEM names the method. */
value *data_collate(interp *st, value *sample, value *batch_size, TSNode getitem);
/** The bytes of a batch (tensors, tuples and dicts of them), -1 when any is not known. */
int64_t data_bytes(const value *v, int depth);
/** A torchvision transform T called on X (a PIL image or a C x H x W tensor) at SITE. */
value *torch_transform_call(interp *st, value *t, value *x, TSNode site);

/* ---- layers (layers.c) ---- */
/** An nn layer built from A, or NULL when QUAL is not a layer oomlint knows. */
value *layer_build(interp *st, const char *qual, args *a);
/** Build the parameters of layer QUAL into the existing module M (a class of
 *  the file deriving from the layer). False when QUAL is not known. */
bool layer_init_into(interp *st, obj *m, const char *qual, args *a);
/** Whether QUAL is a torch.nn class without parameters. */
bool layer_is_free(const char *qual);
/** The short display name of QUAL: torch.nn.modules.linear.Linear -> nn.Linear */
const char *layer_short(interp *st, const char *qual);
const char *layer_label(interp *st, const char *shortname, const args *a);

#endif
