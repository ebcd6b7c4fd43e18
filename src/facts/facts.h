/* The semantic model of one file, built by one iterative walk of its tree:
 * imports and aliases, functions, loops (and which run once per batch),
 * no-grad regions, except clauses, periodic `if` blocks, calls and comments.
 * Rules ask it questions through the engine's `#oom-...?` predicates. */
#ifndef OOM_FACTS_FACTS_H
#define OOM_FACTS_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "util/buf.h"
#include "util/vec.h"

/* the elements of a returned tuple the graph model follows one by one */
#define FACTS_MAX_ELEMS 8
#define FACTS_MIXED 255   /* facts_function.elem_param: returns disagree */
#define FACTS_LITERAL 254 /* facts_function.elem_param: only literals so far */
#define FACTS_THAWS 255 /* facts_function.freeze_flag: to True, or to values that disagree */

/* a node that ts_node_is_null() reports as null */
#define NULL_NODE ((TSNode){{0, 0, 0, 0}, NULL, NULL})

typedef struct {
  uint32_t start, end; /* bytes, end exclusive */
} facts_span;

typedef enum { BINDING_IMPORT, BINDING_ALIAS, BINDING_OTHER } facts_binding_kind;

typedef struct {
  const char *name; /* points into the source */
  uint32_t name_len;
  uint32_t pos;     /* where the binding happens */
  facts_binding_kind kind;
  char *qualname;   /* BINDING_IMPORT: the imported dotted name */
  TSNode value;     /* BINDING_ALIAS: the name or attribute chain bound */
  uint32_t parameter_of; /* a parameter of function PARAMETER_OF - 1; 0: none */
} facts_binding;

typedef struct {
  facts_span whole, body;
  int parent;       /* enclosing function, -1 at module level */
  TSNode node;      /* the function_definition */
  TSNode decorated; /* its decorated_definition, or a null node */
  bool no_grad;     /* decorated with @torch.no_grad() and friends */
  bool no_grad_by_callers; /* no_grad only because every call of it in the file runs under no_grad */
  const char *name; /* points into the source */
  uint32_t name_len;
  int klass;        /* the class it is a method of, -1 */
  bool asserts;     /* has an assert statement of its own (a unit test's) */
  /* the summary other functions of the file see */
  bool trains;        /* calls .backward() or optimizer.step(), itself or through callees */
  bool backward;      /* calls .backward(), itself or through callees */
  bool step;          /* a training step: backward or optimizer.step outside its own loops */
  bool own_backward;  /* calls .backward() (or a loss scaler's, a wrapper's) in its own body */
  bool updates;       /* steps an optimizer, itself or through callees (a profiler's backward does not) */
  bool gradients;     /* computes gradients: `.backward()`, `torch.autograd.grad`, a Captum `.attribute(...)`,
                         itself or through callees (an explainer's forward) */
  bool returns_graph; /* returns a graph-carrying value */
  int8_t grad_switch; /* 0: not asked yet; -1: none; k + 1: computes under `torch.set_grad_enabled(p)`,
                         p its k-th parameter (graph.c, asked lazily) */
  bool returns_no_grad; /* every return is a no-grad context (`return torch.no_grad()` on each branch) */
  /* a helper setting `requires_grad` on the parameters of a model it is
   * handed: 1 + that parameter's index (0: none), and to what: 0 False,
   * 1 + J its parameter J (`def requires_grad_(model, flag): for p in
   * model.parameters(): p.requires_grad_(flag)`), FACTS_THAWS True or
   * values that disagree */
  uint8_t freezes_param, freeze_flag;
  bool policy_terms;  /* returns a name bound to a distribution's log_prob(...)/entropy() (PPO's evaluate) */
  bool returns_scalar_loss;
  bool returns_divided;     /* returns a value divided on its way (`return loss / accum_steps`) */
  /* `return {"loss": loss.detach(), ...}`: a "loss" key seen in returned
   * dicts, one of them carrying a graph, a return that is no such dict */
  bool loss_key, loss_key_graph, other_return;
  /* the dicts it returns, key by key (`return dict(acc=acc.tolist(), ...)`,
   * `return out` after `out = {...}; out["loss"] = loss`): DICT_FORM, known
   * before the analysis, when some return gives a dict display, `dict(...)`,
   * a name bound to one, or a call of such a function of the file;
   * DICT_RETURNS when a return the analysis read gives a dict whose keys
   * it knows, DICT_OTHER when one gives anything else; GRAPH_KEYS has bit
   * facts_key_bit(K) set when the entry under K of one of them is computed
   * from a graph or from the parameters (all bits: an entry whose key is
   * not a literal) */
  bool dict_form, dict_returns, dict_other;
  uint64_t graph_keys;
  bool returns_model;      /* returns an nn.Module instance */
  bool returns_frozen;     /* every return builds a module class of the file holding no trainable parameter
                              (facts_class.no_parameters: `return FrozenAutoencoderKL(cfg, path)`) */
  bool returns_device_arg; /* returns data moved to a device (`return data.to(device)`) */
  bool slices_first_arg;   /* subscripts its first parameter (`source[i:i + n]`) */
  bool returns_float64;    /* returns float64 NumPy data (`np.random.randn(n, d)`, `.astype(np.float64)`) */
  uint8_t float64_elems;   /* bit K: element K of a returned tuple is float64 NumPy data */
  bool scales_loss;        /* backpropagates through a loss scaler or a wrapper's `.backward(loss)`, itself or through callees */
  bool differentiated;     /* handed to a call whose result is backpropagated (`loss_fn(model, guide, x).backward()`) */
  bool feeds_loss;         /* called by a function of the file named `forward`, `__call__` or for a loss: no evaluation */
  bool returns_tuple;      /* some `return` of it gives a tuple (`return a, b`) */
  uint8_t nelems;          /* returns tuples of this length (0: not a tuple) */
  bool elems_varied;       /* returns tuples of more than two lengths, or starred ones: elements unknown */
  uint8_t elems[FACTS_MAX_ELEMS]; /* per element of the returned tuples: TAINT_GRAPH | TAINT_SCALAR | TAINT_DIVIDED */
  /* a second length (`return loss, outputs, metrics` beside `return loss,
   * metrics`): a caller unpacking N names takes the tuples of length N */
  uint8_t nelems2;
  uint8_t elems2[FACTS_MAX_ELEMS];
  /* per element of the tuples of length nelems (and nelems2): 1 + K when
   * every such return gives the function's parameter K itself, which the
   * function rebinds to literals only (`return loss, n` in `def sync(out,
   * loss, n): ... n = 0`): a caller's element is what that argument
   * carries, not what all of them do; 0 when it is not, FACTS_MIXED when
   * returns disagree, FACTS_LITERAL when every one gives a literal */
  uint8_t elem_param[FACTS_MAX_ELEMS], elem_param2[FACTS_MAX_ELEMS];
} facts_function;

/* a name at a position: subscripts `x[...]` */
typedef struct {
  const char *name;
  uint32_t len, pos;
} facts_ref;

/* per-byte flags of the graph analysis, at the start of each name it read */
enum {
  TAINT_SEEN = 1,   /* the analysis evaluated the name here */
  TAINT_GRAPH = 2,  /* and it carried an autograd graph */
  TAINT_SCALAR = 4, /* and it held a scalar loss */
  TAINT_DIVIDED = 8, /* and it had been divided on its way here */
  TAINT_ARG = 16,    /* only in the elements of returned tuples: computed from the function's parameters */
  TAINT_CLEAN = 32   /* only there too: known to carry no graph on every return (`approx_kl.item()`) */
};

/* what a loop body does itself (nested loops and functions excluded) */
enum {
  LOOP_CALLS_BACKWARD = 1,
  LOOP_CALLS_STEP = 2,
  LOOP_CALLS_MODEL = 4,
  LOOP_ITERATES_LOADER = 8
};

typedef struct {
  facts_span body;
  int function;     /* enclosing function, -1 at module level */
  int parent;       /* enclosing loop of the same function, -1 if none */
  int outer;        /* enclosing loop at any depth (across functions), -1 if none */
  TSNode node;      /* for_statement or while_statement */
  unsigned evidence;
  bool per_iteration;
} facts_loop;

typedef struct {
  TSNode call;
  int loop;         /* innermost loop of the same function, -1 if none */
  int function;
} facts_call;

typedef struct {
  facts_span body;
  TSNode type;      /* the caught type expression; null node for bare except */
} facts_except;

typedef struct {
  facts_span span;
  TSNode candidate; /* the with-item value, decorator expression or statement */
} facts_region;

/* the consequence of an `if` whose test uses `%`: work done now and then */
typedef struct {
  facts_span body;
  facts_span test;  /* the `if`'s condition */
  TSNode modulus;   /* K of the test's one `X % K == c` (or `not X % K`); null when it has none, or several `%` */
} facts_periodic;

/* `X.requires_grad_(False)` (also at the end of a chain such as
 * `X.eval().requires_grad_(False)`) or `(True)`: X's parameters frozen or
 * thawed, in the scope of FUNCTION */
typedef struct {
  const char *name; /* X, into the source */
  uint32_t len;
  int function;     /* -1 at module level */
  bool frozen;
} facts_freeze;

typedef struct {
  TSNode node;
  TSNode bases;     /* argument_list or null */
  const char *name;
  uint32_t name_len;
  bool is_module;
  bool has_forward; /* defines `forward`: a model whatever its bases (diffusers' ModelMixin...), unless they
                       are all plain (see PLAIN) */
  bool plain;       /* known not to be an nn.Module: every base is object, ABC, one of typing's classes or a
                       plain class itself, and it has a base or no `forward` (a PyG transform's BaseTransform(ABC)) */
  bool is_dataset;  /* derives torch's Dataset (here or in another module of the project) */
  bool no_parameters; /* derives nn.Module (or such classes of the file) alone and stores in `self` only plain
                         data and parameter-free modules, with no `nn.Parameter`: it holds no parameter */
} facts_class;

typedef struct {
  TSNode left, right; /* `name = ...` or `self.attr = ...` */
} facts_assign;

/* a name bound in SPAN */
typedef struct {
  const char *name; /* into the source */
  uint32_t len;
  facts_span span;
} facts_scoped_name;

typedef struct {
  const char *name;
  uint32_t len;
  int index;
} facts_fname;

/* What a partial relint borrows from the last whole-file lint (see
 * src/engine/partial.c): names that file-wide analyses found anywhere in the
 * file, which the few functions linted again would not find by themselves. */
typedef struct {
  char **module_names, **loader_names, **producers;
  size_t nmodule_names, nloader_names, nproducers;
  bool file_backward;
  bool file_gradients;
  bool file_scales_loss;
} facts_seed;

/* ---- what the modules a file imports say (src/project) ---- */

/* What a name another module of the project defines is, as its summary says. */
enum {
  SYM_CLASS = 1u << 0,
  SYM_FUNCTION = 1u << 1,       /* a function, or a method (`Class.method`) */
  SYM_VALUE = 1u << 2,          /* a name bound at module level */
  SYM_MODULE_FILE = 1u << 3,    /* the name is a module of the project itself */
  SYM_MODEL = 1u << 4,          /* an nn.Module class, a function returning a model, a name bound to one */
  SYM_RETURNS_GRAPH = 1u << 5,  /* returns a graph-carrying value */
  SYM_RETURNS_SCALAR = 1u << 6, /* returns a scalar loss */
  SYM_TRAINS = 1u << 7,         /* calls .backward() or steps an optimizer, itself or through callees */
  SYM_BACKWARD = 1u << 8,       /* calls .backward() */
  SYM_STEP = 1u << 9,           /* a whole training step (backward or step outside its own loops) */
  SYM_NO_GRAD = 1u << 10,       /* runs with gradients off (decorated); a class: its forward/__call__ does */
  SYM_TO_DEVICE = 1u << 11,     /* returns its first argument moved to a device (`batchify(data, bsz, device)`) */
  SYM_SCALES_LOSS = 1u << 12,   /* scales the loss it backpropagates (GradScaler, an AMP optimizer) */
  SYM_DATASET = 1u << 13,       /* a class deriving torch's Dataset */
  SYM_FLOAT64 = 1u << 14,       /* returns float64 NumPy data or tensors */
  SYM_SLICES_ARG = 1u << 15,    /* slices its first argument (`get_batch(source, i)`: `source[i:i + n]`) */
  SYM_PLAIN = 1u << 16,         /* a class known not to be an nn.Module (facts_class.plain); in a summary whose
                                   class refers to bases, only if they all turn out plain (view.c decides) */
  SYM_FORWARD = 1u << 17,       /* summaries only: a class defining `forward` that is a model unless its bases
                                   turn out plain; the lookup answers SYM_MODEL or SYM_PLAIN instead */
  SYM_OWN_ENTRY = 1u << 18,     /* summaries only: a class defining its own `forward` (it does not inherit its
                                   bases' SYM_NO_GRAD: a `__call__` of its own still reaches theirs, as
                                   mmpretrain's inferencers' do) */
  SYM_NO_PARAMETERS = 1u << 19, /* a module class holding no trainable parameter (facts_class.no_parameters):
                                   its instances are no model, though subclasses derive a module from it; a
                                   function: every return builds such a class (function.returns_frozen) */
  SYM_CLEAN_LOSS_KEY = 1u << 20, /* returns only dicts whose "loss" carries no graph (`{"loss": loss.detach()}`) */
  SYM_UPDATES = 1u << 21,        /* steps an optimizer, itself or through callees */
  SYM_RETURNS_WRAPPER = 1u << 22, /* returns an instance of a class whose calls run without gradients or choose
                                    their grad mode themselves (`create_metric(...)` returning an IQA metric) */
  SYM_GRADIENTS = 1u << 23,       /* computes gradients, itself or through callees (function.gradients): a
                                     class's forward that does is an explainer, whose calls need autograd */
  SYM_NO_GRAD_CONTEXT = 1u << 24, /* a function returning a no-grad context on every return
                                     (function.returns_no_grad): `with inference_context(serial):` */
  SYM_FRESH_MODEL = 1u << 25,     /* a function returning a model it builds and leaves untrained on every return
                                     (facts_builds_fresh_model): `create_RepVGG_B1(deploy=False)` */
  SYM_ABSTRACT = 1u << 26,        /* a method its subclasses fill in (facts__abstract_method): it runs nothing */
  SYM_DICT_RETURNS = 1u << 27,    /* every return gives a dict whose keys are known: graph_keys says which
                                     carry a graph (function.dict_returns without dict_other) */
  SYM_RUNS_HANDED_NO_GRAD = 1u << 28 /* calls its parameters, and only under no_grad: a closure handed to it
                                        runs without gradients (`Evaluater.evaluate(lambda x: model(x), ...)`) */
};

typedef struct {
  uint32_t flags;                  /* SYM_* */
  uint8_t nelems;                  /* a function returning a tuple: its length (0: not a tuple) */
  uint8_t elems[FACTS_MAX_ELEMS];  /* per element: TAINT_GRAPH | TAINT_SCALAR */
  uint8_t nelems2;                 /* a second length its tuples have (0: none) */
  uint8_t elems2[FACTS_MAX_ELEMS];
  uint8_t float64_elems;           /* bit K: element K of the returned tuples is float64 NumPy data */
  /* a class: what calling an instance returns (its `__call__`'s or
   * `forward`'s tuples); a function: the same of the instance it returns
   * (`create_loss()` returning `DualLoss(cfg)`). 0: not a known tuple */
  uint8_t ncall_elems;
  uint8_t call_elems[FACTS_MAX_ELEMS];
  uint8_t freezes_param, freeze_flag; /* a plain function (not a method): as facts_function's */
  uint64_t graph_keys;                /* with SYM_DICT_RETURNS: as facts_function's */
} facts_symbol;

typedef struct facts_imports facts_imports;
struct facts_imports {
  /** What the project says of QUALNAME (LEN bytes, as facts_qualname
   *  gives it; relative imports keep their leading dots): false when it is
   *  not a name of the project. */
  bool (*lookup)(const facts_imports *self, const char *qualname, size_t len, facts_symbol *out);
  /** The module of the project QUALNAME (LEN bytes) names, as the module
   *  at IMPORTER (absolute; NULL: the file itself) imports it: its absolute
   *  path and text appended to PATH and TEXT, and in *REST where the
   *  attribute chain after the module begins in QUALNAME (LEN when it names
   *  the module). False when no readable module of the project matches.
   *  May be NULL. */
  bool (*source)(const facts_imports *self, const char *importer, const char *qualname, size_t len, buf *path,
                 buf *text, size_t *rest);
  /** How the methods of the project class BASE (LEN bytes, a base class
   *  as facts_qualname gives it) and of its own bases call METHOD (MLEN
   *  bytes) on `self`: FACTS_CALLED_* bits, 0 when they do not (or BASE is
   *  not the project's). May be NULL. */
  uint8_t (*base_calls)(const facts_imports *self, const char *base, size_t len, const char *method, size_t mlen);
  /** How the modules of the project that import the file call a function
   *  or method named NAME (LEN bytes): FACTS_CALLED_* bits, 0 when none
   *  does. May be NULL. */
  uint8_t (*importer_calls)(const facts_imports *self, const char *name, size_t len);
  /** What the project says of method METHOD (MLEN bytes) of the class
   *  KLASS (LEN bytes, as facts_qualname gives it), defined there or in one
   *  of its bases: false when neither defines it. May be NULL. */
  bool (*method_symbol)(const facts_imports *self, const char *klass, size_t len, const char *method, size_t mlen,
                        facts_symbol *out);
  /** Whether the classes of the project that define a method named METHOD
   *  (MLEN bytes), looked for in every module of the project, all run it
   *  without gradients (decorated, or its whole body in a no-grad block),
   *  and at least one does. May be NULL. */
  bool (*method_no_grad_anywhere)(const facts_imports *self, const char *method, size_t mlen);
  /** Whether the classes of the project that define a method named METHOD
   *  (MLEN bytes), looked for in every module of the project, all run a
   *  backward pass in it, and at least one does. May be NULL. */
  bool (*method_backward_anywhere)(const facts_imports *self, const char *method, size_t mlen);
  /** Whether QUALNAME (LEN bytes, a module and one name after it) names a
   *  name that the module of the project it resolves to neither defines
   *  nor imports, with no star import that could bring it: an import that
   *  fails when it runs. May be NULL. */
  bool (*absent)(const facts_imports *self, const char *qualname, size_t len);
};

/* How a function is called: under no_grad, with gradients on, or both;
 * BACKPROP: a call with gradients on whose result its caller backpropagates
 * (`loss = scorer.reward_scorer(...)`, then `loss.backward()`) */
enum { FACTS_CALLED_NO_GRAD = 1, FACTS_CALLED_GRAD = 2, FACTS_CALLED_BACKPROP = 4 };

typedef struct facts {
  const char *source;
  size_t length;
  TSNode root;
  VEC(facts_binding) bindings; /* sorted by name, then position */
  VEC(facts_function) functions;
  VEC(facts_loop) loops;
  VEC(facts_call) calls;
  VEC(facts_except) excepts;
  VEC(facts_periodic) periodic; /* consequences of `if ... % ...:`, in file order */
  VEC(facts_span) no_grad;     /* resolved no-grad spans */
  VEC(facts_region) with_items, set_grad_false, set_grad_true;
  VEC(facts_class) classes;
  VEC(facts_assign) assigns;
  VEC(facts_assign) self_aliases; /* `self.x = name_or_attribute` */
  VEC(facts_call) returns;     /* return statements with a value (CALL is the statement), in file order */
  VEC(facts_span) comments;
  VEC(facts_span) lambdas;     /* every `lambda`, in file order */
  VEC(char *) imported_modules;
  VEC(char *) star_modules;    /* `from pkg import *`: pkg (owned by imported_modules) */
  VEC(char *) module_names;    /* names (and `self.x`) bound to nn.Module instances */
  /* a name of module_names (not named like a model) that a function binds
   * itself with no evidence of a model there: it is no model in that
   * function (INDEX the function), whatever another function binds to it */
  VEC(facts_fname) local_non_models;
  VEC(facts_fname) model_sites; /* while resolving: (name, function) where a use or binding shows a model */
  VEC(char *) loader_names;    /* names bound to DataLoader(...) */
  VEC(facts_ref) subscripts;   /* `name[...]` */
  VEC(facts_fname) functions_by_name; /* sorted by name */
  VEC(char *) producers;       /* callees whose output reached .backward() */
  VEC(char *) loss_names;      /* names bound to a torch.nn loss (`ce = nn.CrossEntropyLoss()`) */
  VEC(char *) wrapper_names;   /* names bound to an instance of a class whose forward/__call__ runs under no_grad */
  VEC(char *) parameter_free_names; /* names bound somewhere to an instance of a class with no_parameters */
  VEC(facts_freeze) freezes;   /* in file order */
  VEC(uint32_t) self_patterns; /* starts of assignments to a pattern that holds `self.x` (`self.a, self.b = ...`) */
  VEC(facts_scoped_name) submodule_targets; /* targets of `for` loops over a model's submodules, with the loop body */
  unsigned char *taint;        /* TAINT_* per source byte; see graph.c */
  /* per return statement (as RETURNS): bit K when element K of the tuple
   * it returns is known to carry no graph (`approx_kl.item()`), bit 8 once
   * asked (graph.c's clean_elements) */
  uint16_t *return_clean;
  bool dict_entries;           /* a `forward` or `__call__` of the file returns dicts (function.dict_form) */
  bool dict_summary_read;      /* the analysis read a dict summary of a function of the file: a change of one
                                  asks for another round */
  struct facts_field_memo *field_memo; /* while the facts are built (facts__field) */
  bool file_backward;          /* some code calls .backward() */
  bool file_gradients;         /* some call takes gradients through a function of the project (`autograd_gradients`) */
  /* the text names `requires_grad`; the file imports torchaudio or
   * kymatio: the rarer checks that need them are skipped in most files */
  bool mentions_requires_grad, mentions_audio_transforms;
  bool imports_estimators; /* imports scikit-learn, XGBoost or LightGBM */
  bool self_attr_backward;     /* a method backpropagates an attribute of self (`self.loss.backward()`) */
  /* the file is a test suite by its name (`test_*.py`, `*_test.py`): its
   * `test_*` functions are unit tests that pytest collects without an
   * import. Set by the caller after the build; false for summaries and
   * standard input. */
  bool test_suite;
  bool mentions_grad_fn;       /* the text holds `grad_fn` somewhere: code may walk a recorded graph */
  bool file_updates;           /* some code of the file steps an optimizer (a function's or module level) */
  bool freezes_any;            /* some code calls `.requires_grad_(False)`, on a name or not */
  VEC(char *) non_model_names; /* names bound somewhere to a lambda or to an instance of a plain class of the
                                  file (`model = ONNXWrapper(path)`): facts_is_frozen asks what their calls run */
  VEC(facts_fname) function_imports; /* names a function imports itself (INDEX the function; a lazy import) */
  VEC(uint32_t) instance_assigns; /* indexes into assigns of `x = Class(...)` (a capitalized callee), in order */
  bool file_scales_loss;       /* some code scales the loss it backpropagates (facts_function.scales_loss) */
  uint32_t max_depth;          /* of the syntax tree */
  const facts_seed *seed;      /* NULL but in a partial relint */
  const facts_imports *imports; /* NULL: the file is read alone */
  struct facts_symbol_memo *symbol_memo; /* facts_project_symbol's answers by node */
  struct facts_qualname_memo *qualname_memo; /* facts_qualname's answers by node, once the names are indexed */
  uint8_t *importer_no_grad;   /* per function, facts_no_grad_in_importers' answer: 0 not asked, 1 no, 2 yes */
  uint8_t *base_called;        /* per function, how the methods of its class's project bases call it on `self`
                                  (FACTS_CALLED_*), or NULL when no class has such a base */
} facts;

/* Trees deeper than this are not analysed: CPython stops compiling long
 * before (a chain of 2,000 method calls, about 4,000 levels, is already a
 * RecursionError), and tree-sitter's query cursor slows quadratically. */
#define FACTS_MAX_DEPTH 2500

/** Build the facts of TREE's root over SOURCE. */
void facts_build(facts *self, TSNode root, const char *source, size_t length);
/** Like facts_build, with SEED's names known from the start (SEED must
 *  outlive SELF). */
void facts_build_seeded(facts *self, TSNode root, const char *source, size_t length, const facts_seed *seed);
/** Like facts_build_seeded, the names the file imports from its project
 *  answered by IMPORTS (NULL: none; it must outlive SELF). */
void facts_build_with(facts *self, TSNode root, const char *source, size_t length, const facts_seed *seed,
                      const facts_imports *imports);
/** What the project says of the name or attribute chain NODE (a callee, a
 *  base class) after alias resolution; false when it is not the project's. */
bool facts_project_symbol(const facts *self, TSNode node, facts_symbol *out);
/* What the identifier NODE, a name the file never binds, names when a
 * project module the file imports with `from model import *` defines it
 * as a function (`def scalar(x): return x.view(-1).data.tolist()[0]`).
 * Asked only where an unknown callee would be taken for the producer of a
 * graph: facts_project_symbol does not answer through star imports, whose
 * summaries' elements would then reach every call (a returned tuple's
 * elements computed from any parameter count as computed from all). */
bool facts_star_function(const facts *self, TSNode node, facts_symbol *out);

/* Whether some binding of the identifier CALLEE in the file (of at most
 * sixteen) makes an instance of a project class whose `__call__` or
 * `forward` trains (synsin's `model = BaseModel(model, opts)`, whose
 * forward runs the backward passes and optimizer steps): calling the name
 * trains, whatever else it is bound to. */
bool facts_names_training_instance(const facts *self, TSNode callee);

/* What an entry of a class's base list says of the class being an nn.Module */
enum {
  FACTS_BASE_OTHER,  /* a class to look up (here, in the project) or one not known */
  FACTS_BASE_PLAIN,  /* none: object, ABC, `metaclass=ABCMeta`, typing's Generic[T], Protocol, NamedTuple... */
  FACTS_BASE_SKIP    /* not a base: a keyword such as `metaclass=Meta` or `total=False` */
};
/** The FACTS_BASE_* of entry *BASE of a class's base list, TMP a scratch
 *  buffer; *BASE becomes the class it names without its subscript
 *  (`Base[T]`: `Base`). */
int facts_base_kind(const facts *self, TSNode *base, buf *tmp);
/** The summary of the method CALLEE (`trainer.train_step`) calls, when its
 *  object is a name every assignment of the file binds to an instance of
 *  the same class of another module of the project. */
bool facts_instance_method_symbol(const facts *self, TSNode callee, facts_symbol *out);
/** The symbol of `param.method` (CALLEE) where `param` is a parameter of
 *  the function reading it, not annotated, whose name every other binding
 *  in the file makes an instance of one project class (`def
 *  train_one_epoch(netgroup, loader)` beside `netgroup = NetGroup(3)`):
 *  the function is handed that instance. */
bool facts_parameter_method_symbol(const facts *self, TSNode callee, facts_symbol *out);
/** The bit of facts_function.graph_keys that stands for the dict key KEY
 *  (LEN bytes, without quotes): a 64-bit filter, so two keys may share a
 *  bit, which only makes a clean key look like it carries a graph. */
uint64_t facts_key_bit(const char *key, size_t len);
#define FACTS_ALL_KEYS (~(uint64_t)0)
/** What calling the instance CALLEE (a name) runs: the symbol of its
 *  class's `__call__`, else its `forward`, when every binding of the name
 *  builds one class of the project, or the name is a parameter annotated
 *  with one (`def train(trainer: Trainer)`). */
bool facts_instance_call_symbol(const facts *self, TSNode callee, facts_symbol *out);
/* The names a value NAMES[0] (LENS[0] bytes) goes by in function FN (-1:
 * module level) from byte AFTER on: itself, and each name bound there from
 * an expression that reads it (`value_loss = torch.stack(value_losses)
 * .sum()`), or with CHAIN one that reads a name found so far (`baseline =
 * torch.cat(baselines)`, then `critic_loss = mse(baseline, r)`), each name
 * once, at most MAX in all; returns how many (graph.c). */
size_t facts__names_after(const facts *f, int fn, uint32_t after, const char **names, uint32_t *lens, size_t max,
                          bool chain);
/* facts__names_after's names, found by a walk of FN's statements after
 * AFTER (the N names known so far first): augmented assignments go on
 * too (`total_loss += loss`, then `mean_loss = total_loss / n`). A walk
 * costs more than the table facts__names_after reads: asked where that
 * found nothing (graph.c). */
size_t facts__sums_after(const facts *f, int fn, uint32_t after, const char **names, uint32_t *lens, size_t n,
                         size_t max);
/* Whether S (LEN bytes) is named like a loss: it holds `loss` or `crit`
 * (`criterion`), not as an actor-critic's `critic` (graph.c). */
bool facts__named_as_loss(const char *s, size_t len);
/* Inside src/facts: whether every instance NAME (LEN bytes; `self.cri_ofr`)
 * is bound to is of a class named as a loss (`OFR_loss(w).to(device)`). */
bool facts__loss_instance(const facts *f, const char *name, uint32_t len);
/* Whether the body of function G only raises NotImplementedError (after a
 * docstring): a method its subclasses fill in. */
bool facts__abstract_method(const facts *f, int g);
/* Whether S (LEN bytes) is named like a model instance: `model`, `net`,
 * `*_model`. */
bool facts__named_like_model(const char *s, uint32_t len);
/* Whether TEXT (TLEN bytes) holds NAME (LEN bytes) as a whole expression
 * prefix: `self.out` in `self.out.mean()`, not in `self.output` (facts.c). */
bool facts__mentions(const char *text, uint32_t tlen, const char *name, uint32_t len);
/* Whether the callee of CALL is NAME or `x.NAME`, read off the call's text before its first `(`. */
bool facts__call_named(const facts *f, TSNode call, const char *name, uint32_t len);
/* The next place at or after FROM where the source holds TEXT (LEN bytes)
 * wholly before END; END when there is none. A byte scan: for the rare
 * questions no table answers (subscript stores, `return` statements). */
uint32_t facts__next_text(const facts *self, uint32_t from, uint32_t end, const char *text, uint32_t len);
/* Whether NAME is a parameter of function FN: bound in its signature
 * (facts.c). */
bool facts__parameter_of(const facts *f, const char *name, uint32_t len, int fn);
/* The class annotating NAME where it is a parameter of function FN
 * (`model: Model`), its qualified name in OUT (resolve.c). */
bool facts__annotated_class(const facts *f, TSNode name, int fn, buf *out);
/* The parameter of function G that argument *A of a call binds, the
 * argument being the POSITION-th positional one (counting `self` for a
 * method) unless it is a keyword argument; *A becomes the value bound
 * (resolve.c). */
TSNode facts__argument_parameter(const facts *f, int g, TSNode *a, uint32_t position);
/* The index of parameter NAME of function G (as facts__argument_parameter
 * counts them, `self` included), or -1 (resolve.c). */
int facts__parameter_index(const facts *f, int g, TSNode name);
/* Whether loop L, a `for` over a plain name, steps along a later axis of
 * one tensor with its variable: `x[:, t]` in its body, or the variable
 * handed to a function of the file that indexes so with the parameter it
 * binds (`self._get_inputs(batch, t)`): the time steps or latent slots of
 * one batch, not new data (contexts.c). */
bool facts__steps_later_axis(const facts *f, const facts_loop *l);
/* Whether loop L runs over the pieces of one tensor (`for ids, lbl in
 * zip(input_ids.split(n, dim=1), labels.split(n, dim=1))`, `for x in
 * chunks[1:]` with `chunks = list(torch.split(x, n))`), or over the time
 * steps of a time-major view of one (`for i in range(len(x))` after `x =
 * x.transpose(0, 1)`): the chunks of one batch, as in truncated
 * backpropagation through time or MixMatch's interleaved forward passes,
 * or its frames. Not new data. */
bool facts__chunk_loop(const facts *self, const facts_loop *l);
/* Whether the name or `self.x` S (LEN bytes) is a model at byte POS: one
 * of module_names, unless the function around POS binds it itself with no
 * evidence of a model (local_non_models; resolve.c). */
bool facts__model_name_at(const facts *f, const char *s, uint32_t len, uint32_t pos);

/* Whether the C string ITEM is the LEN bytes at S: its first byte before
 * anything, then no further than ITEM's end (lists of names are scanned
 * for nearly every call of a file, and most entries differ at once). */
static inline bool facts__cstr_is(const char *item, const char *s, size_t len) {
  /* byte by byte, never past ITEM's end: S (source text) may hold a NUL */
  for (size_t i = 0; i < len; i++)
    if (item[i] == '\0' || item[i] != s[i]) return false;
  return item[len] == '\0';
}
void facts_free(facts *self);

/** Resolve NAME-or-attribute-chain NODE (or a call's callee) through imports
 *  and aliases into OUT ("torch.cuda.empty_cache"). False when it does not
 *  resolve to an imported name. */
bool facts_qualname(const facts *self, TSNode node, buf *out);
/** Frees the memo of facts_qualname's answers (facts_free calls it). */
void facts__qualname_memo_free(struct facts_qualname_memo *m);

/** The innermost function containing byte POS, or -1. */
int facts_function_at(const facts *self, uint32_t pos);
/** The run [*FIRST, *END) of bindings of NAME (bindings are sorted by name). */
void facts_bindings_named(const facts *self, const char *name, uint32_t len, size_t *first, size_t *end);
/** The index of the first call starting at or after POS (calls are in source
 *  order): scans of one function's or loop's calls start there, not at the
 *  top of the file, which made them quadratic in long files. */
size_t facts_first_call_at(const facts *self, uint32_t pos);
/** The index of the first assignment starting at or after POS (assigns are
 *  in source order, as calls are). */
size_t facts_first_assign_at(const facts *self, uint32_t pos);
/** For each function, the innermost class whose body holds it, or -1, in
 *  OUT[functions.len] (internal to the facts). */
void facts__innermost_classes(const facts *self, int *out);
/** The innermost loop of POS's own function containing POS, or -1. */
int facts_innermost_loop_at(const facts *self, uint32_t pos);
/** The innermost per-iteration loop of POS's own function containing POS, or -1. */
int facts_iteration_loop_at(const facts *self, uint32_t pos);
/** Whether loop LOOP trains: its body, or a loop nested in it in the same
 *  function (`for ll in log_likelihoods: ll.backward()` per sample of the
 *  batch), calls `.backward()` or steps an optimizer. */
bool facts_loop_trains(const facts *self, int loop);
/** Whether POS is inside the consequence of a periodic `if` inside LOOP. */
bool facts_periodic_at(const facts *self, uint32_t pos, int loop);
bool facts_in_no_grad(const facts *self, uint32_t pos);
/** Whether POS is in a function (or a function nested in one) that the
 *  file never calls and that the modules of the project importing the file
 *  call, every time, with gradients off (`with torch.no_grad():
 *  model.inference(g)` in the training script beside model.py). Asks the
 *  project, so only for what a rule would otherwise report. */
bool facts_no_grad_in_importers(const facts *self, uint32_t pos);
/** Whether the call at POS is `x.m(...)` where every assignment of the file
 *  to `x` builds the same class of the project, whose method `m` (its own
 *  or a base's) runs under no_grad (`@torch.no_grad()` or a project
 *  decorator named for it). Parameters named `x` are taken to be those
 *  instances (`def evaluate(loader, faster_rcnn)` beside `faster_rcnn =
 *  FasterRCNNVGG16()`). Asks the project: only for what a rule would
 *  otherwise report. */
bool facts_no_grad_method_call(const facts *self, uint32_t pos);
/* Whether CALL hands on models (names the file knows as models) that are
 * all frozen, one at least (`get_model_flops(model, dims)` after `for p in
 * model.parameters(): p.requires_grad = False`): what the callee runs on
 * them records no graph, as under no_grad. */
bool facts_hands_only_frozen_models(const facts *self, TSNode call);
/** The except clauses containing POS, innermost first, at most MAX. */
size_t facts_excepts_at(const facts *self, uint32_t pos, const facts_except **out, size_t max);
/** Whether the call at POS is the only backward pass of an iteration. */
bool facts_sole_backward(const facts *self, uint32_t pos);
/** Whether `.backward(retain_graph=True)` at POS keeps a graph no later
 *  backward of its iteration uses: its innermost loop runs a forward pass of
 *  its own or steps an optimizer, does not iterate values the file stores
 *  with `.append()` (transitions sharing a graph built before the loop), and
 *  no backward pass follows it there. */
bool facts_retained_graph_unused(const facts *self, uint32_t pos);
/** Whether the call at POS is the first backward pass directly in the body
 *  of its per-iteration loop (no inner loop between them): one per loop,
 *  whether the iteration has one backward pass or several (a GAN's). */
bool facts_first_backward(const facts *self, uint32_t pos);
/* ---- the graph model (graph.c) ---- */

typedef struct {
  bool graph, scalar, divided;
} facts_value;

/** What expression NODE holds at its position, as the analysis saw it. */
facts_value facts_value_of(const facts *self, TSNode node);
/** Whether the callee NODE is an nn.Module instance or produced a graph. */
bool facts_is_model(const facts *self, TSNode node);
/** Whether CALLEE, a model, has its parameters frozen where it is called:
 *  `.requires_grad_(False)` on it at module level, in the calling function
 *  or in its class's `__init__`, and `.requires_grad_(True)` in none of them;
 *  or it has none: an instance of a class of the file that holds none
 *  (facts_class.no_parameters: `x * y + y` in its forward), a parameter-free
 *  torch.nn layer (`nn.LogSoftmax(dim=2)`), an `nn.Sequential` of them. A frozen
 *  model's output carries a graph only when its input does. */
bool facts_is_frozen(const facts *self, TSNode callee);
/** Whether a call of CALLEE runs a model's forward pass: a model (as
 *  facts_is_model), or a forward-like method or a submodule of one
 *  (`net.forward`, `model.predict`, `self.model.encoder`); never a loss
 *  (`criterion`, a `torch.nn` loss) nor an instance of a class of the file
 *  whose `forward`/`__call__` runs wholly under no_grad. */
bool facts_is_model_call(const facts *self, TSNode callee);
/** The model attribute that CALLEE, `self.<method>` of the caller's own
 *  class, returns the call of on every return (`def infer(self, x): return
 *  self.module_(x)`): a call of the method is that model's forward pass.
 *  A null node when CALLEE is no such method. */
TSNode facts_delegated_model(const facts *self, TSNode callee);
/** Whether a backward pass may follow the code at POS in its function: a
 *  `.backward()`, a call of a function that runs one, an optimizer step or
 *  a call handed an optimizer, after POS in the function's text, or before
 *  it in a loop holding POS with no `.eval()` between them. */
bool facts_backward_follows(const facts *self, uint32_t pos);
/** Whether function FN runs wholly with gradients off: decorated, or each
 *  statement of its body inside a no-grad region. */
bool facts_wholly_no_grad(const facts *self, int fn);
/** Whether function FN (-1: module level) is, or is nested in, a method of
 *  a model: a `forward`, or any method of a class that derives from
 *  nn.Module or defines `forward`. Its calls of submodules are the model's
 *  own computation, not a training or evaluation loop's. */
bool facts_in_module_method(const facts *self, int fn);
/** Whether function FN is in a model's method (as facts_in_module_method)
 *  or in a function of the file outside classes that only models' methods
 *  call, directly or through one more such function. */
bool facts_in_model_code(const facts *self, int fn);
/** Whether class K names a base other than `object` (a class that derives
 *  nothing is no nn.Module, nor a Lightning module, whatever its methods). */
bool facts_class_has_bases(const facts *self, const facts_class *k);
/** Whether STMT, an accumulation `acc += v` or `acc = acc + v` in a
 *  per-iteration loop, only sums a window: `acc` is bound again later in the
 *  same iteration (a reset after the optimizer step) and `v` is
 *  backpropagated in that iteration, which frees what its graph saved. */
bool facts_reset_after_backward(const facts *self, TSNode stmt);
/** Whether STMT, an accumulation in a loop with no backward or optimizer
 *  step of its own (over the layers, features or losses of one step, or a
 *  whole loader for one full-batch step), sums a loss that is backpropagated
 *  after the loop in the same function (`for f, t in zip(feats, targets):
 *  style_loss += mse(f, t)`, then `style_loss.backward()`), itself or
 *  through a name bound from it: one step's loss, not a running sum. */
bool facts_backpropagated_after_loop(const facts *self, TSNode stmt);
/** Whether STMT, an accumulation `acc += v` in a per-iteration loop of a
 *  function, sums the terms of one step: `acc` is bound in the function
 *  before the loop (not a parameter), the loop runs no loader, no optimizer
 *  step and no forward pass (its only model calls are losses, scoring the
 *  slices of one forward before it: per domain, per frame), and `acc` is
 *  read after the loop in the same call (returned, backpropagated,
 *  `.item()`); a loop that differentiates (`autograd.grad` per domain) only
 *  when the function steps its optimizer after the loop. */
bool facts_step_sum(const facts *self, TSNode stmt);
/** Whether S (LEN bytes) names an optimizer (`optimizer`, `opt_d`, a
 *  GradScaler `scaler`), for its `.step()`. */
bool facts_optimizer_name(const char *s, size_t len);
/** Whether STMT, an accumulation `x += v` or `x = x + v`, is a recurrence:
 *  V is computed by a call that takes X itself (`x = x + 0.1 * self.model(x)`,
 *  a residual or denoising step), each step fed by the last, not a sum of
 *  independent values. */
bool facts_recurrence(const facts *self, TSNode stmt);
/** Whether STMT, an accumulation `acc += v` of a name, adds to a dict: the
 *  name's last binding before it in its function is a dict display or
 *  comprehension (`other_loss = {k: 0. for k in widths}`). `dict += tensor`
 *  raises TypeError before any graph is kept; a per-key sum is
 *  `acc[k] += v`. */
bool facts_dict_accumulator(const facts *self, TSNode stmt);
/** Whether NODE, outside any batch loop, names storage that outlives an
 *  epoch's or a step's work: in an epoch loop after its batch loop, a list
 *  bound before the epoch loop; after a batch loop, the instance's own
 *  (`self.train_losses`); in a Lightning `training_step`, the instance's
 *  own (`self.training_step_outputs`). */
bool facts_outlives_epoch(const facts *self, TSNode node);
/** Whether NODE names storage that outlives an iteration of its loop. */
bool facts_outlives_iteration(const facts *self, TSNode node);
/** Whether the storage NODE (a plain name), filled in a per-iteration loop,
 *  belongs to one step or one call rather than to the epoch: a local of a
 *  model's `forward`; filled by a loop over the time steps of one sequence
 *  (no loader, backward or optimizer step of its own, a model's output fed
 *  back into it); read by a later loop of the function that backpropagates;
 *  or filled by a loop over models (`for net in nets: net(x)`) and made anew
 *  in each iteration of an enclosing loop. */
bool facts_step_storage(const facts *self, TSNode node);
/* Whether NODE (a name, or a subscript of one) is last bound to a NumPy
 * array (`np.zeros(...)` and the like): what is stored into it becomes a
 * number and keeps no graph. */
bool facts_numpy_array(const facts *self, TSNode node);
/** Whether the elements of the container NODE are backpropagated in the
 *  per-iteration loop holding it (`losses[i - 1].backward()`): what is
 *  stored in it carries a graph. */
bool facts_elements_backpropagated(const facts *self, TSNode node);
/** Whether the function holding NODE is named as an evaluation (`evaluate`,
 *  `validate`, `test_step`...), so all of it is evaluation. */
bool facts_in_eval_function(const facts *self, TSNode node);
/** Whether NODE is in an evaluation context: a function named as one, or,
 *  for a call of a model, after that model's `.eval()`; never in a model's
 *  own method nor in a unit test (`def test_...` that asserts). */
bool facts_in_eval_context(const facts *self, TSNode node);
/** Whether CALL is a statement of its own (its result dropped) outside any
 *  loop of its function: a warm-up run once for its side effects (a forward
 *  pass that gives lazy layers their shapes before DDP wraps the model). */
bool facts_warm_up_call(const facts *self, TSNode call);
/* Whether the result of CALL goes straight to `.numpy()` in its expression
 * (through `.cpu()`-like methods and subscripts, with no `.detach()`,
 * `.data` or `.item()` on the way): `.numpy()` refuses a tensor that
 * requires grad, so wherever that line runs gradients are off. */
bool facts_to_numpy(const facts *self, TSNode call);
/* The literal (`False`, `0.5`, `"cuda"`) that every binding of the name
 * NODE in the file assigns (`use_mp = False`, once or always alike), or a
 * null node: a parameter, a loop target, an import or any other value
 * makes it no constant. */
TSNode facts_constant_value(const facts *self, TSNode node);
/** Whether a loop around POS is timed: its function calls
 *  `torch.cuda.synchronize()` both before and after it (a benchmark). */
bool facts_timed_loop(const facts *self, uint32_t pos);
/* Whether CALL takes a name bound just before to a tensor that requires
 * grad (`y = torch.randn(T, requires_grad=True)`): a parameter-free module
 * records a graph of it all the same (contexts.c). */
bool facts__arg_requires_grad(const facts *self, TSNode call);
/** Whether the per-iteration loop around POS calls models, and only on
 *  tensors made up in its function (`torch.randn(...)`): a probe of memory
 *  or speed (an adaptive batch sizer's trial steps), not training on data. */
bool facts_probe_loop(const facts *self, uint32_t pos);
/* `call` opens a `with` block holding only `.backward()` calls (and comments) */
bool facts_wraps_only_backward(const facts *self, TSNode call);
/* `call` is handed a model as an argument: a procedure running the model */
bool facts_hands_model(const facts *self, TSNode call);

/* Whether function G calls its parameter PARAM (or, PARAM null, any of its
 * parameters) at least once, and every such call under no_grad: what a
 * caller hands it there runs without gradients. */
bool facts_runs_parameter_only_no_grad(const facts *self, int g, TSNode param);
/* Whether NODE is in the body of a lambda handed as an argument to a
 * callable of another library (not a builtin, not the file's or the
 * project's): that library decides when and under which grad mode it runs
 * (`ptan.agent.PolicyAgent(lambda x: net(x)[0])`, whose `__call__` is
 * no-grad). */
bool facts_handed_to_library(const facts *self, TSNode node);

/* Whether an argument of CALL is a name its function bound to a tensor made
 * to require grad (`x.requires_grad_(True)`, `requires_grad=True`, or a
 * `torch.cat`/`torch.stack` of such names) and a later call of the
 * function takes both that input and the name CALL's result is bound to
 * (`residual(points, pred)`): input gradients are wanted. */
bool facts_input_requires_grad(const facts *self, TSNode call);
/** Whether the function holding NODE returns, after it, a value that a
 *  module of the project importing the file backpropagates: a
 *  differentiable reward, whose model's scores become the loss
 *  `reward_scorer` returns, and the training script runs `loss =
 *  scorer.reward_scorer(...)`, `loss.backward()`. A caller's backward of the
 *  result is the evidence that it holds a graph. */
bool facts_returned_to_importers_backward(const facts *self, TSNode node);
/* Whether what top-level function or method FN (not a dunder) returns is
 * backpropagated by a module of the project that imports the file, or by
 * a project base class of FN's class calling it on `self`. */
bool facts__backpropagated_elsewhere(const facts *f, int fn);
/* Inside src/facts: whether method FN, after AFTER, leaves what one of
 * NAMES (LENS; N of them, room for MAX) holds on an attribute of `self`
 * (`self.loss += ml_loss * w`, through the names bound or summed from them
 * on the way, which are added) that a method of the file backpropagates
 * (`self.loss.backward()` in `train()`), or whose function a base class or
 * an importer calls before a backward (facts__backpropagated_elsewhere):
 * the loss an agent's rollout leaves for its trainer. */
bool facts__left_on_self_for_backward(const facts *f, int fn, uint32_t after, const char **names, uint32_t *lens,
                                      size_t n, size_t max);

/* Whether the statement holding CALL binds or adds its result to a plain
 * name (`logits += model(z) * w`) that a backward pass of the same
 * function later reaches: the forward is part of a training step, eval
 * mode or not (a generator trained through frozen eval-mode classifiers);
 * or appends it to a buffer a method backpropagates
 * (facts_result_buffered_for_backward). */
bool facts_result_backpropagated(const facts *self, TSNode call);
/* Whether CALL's result is appended to a list attribute of self that a
 * method of the class backpropagates (a policy's episode buffer). */
bool facts_result_buffered_for_backward(const facts *self, TSNode call);
/* Whether CALL's result, bound to names not cut from its graph, reaches a
 * return of its function, itself or through names bound from it
 * (`_, cur = self.model(x)`, `d = (cur - ref).pow(2).mean()`, `return d`). */
bool facts_result_returned(const facts *self, TSNode call);

/* Whether POS is in a unit test: a function named `test...` (or nested in
 * one) that asserts, is in a test suite by its file name, or is in a
 * module importing pytest or unittest. */
bool facts_in_unit_test(const facts *self, uint32_t pos);
/** Whether CALLEE (`net`, `net.forward`, `net.encoder`) calls a model
 *  built in the caller's own scope and left untrained there: every binding
 *  of `net` in that function (or at module level) before the call makes a
 *  fresh one (a module class of the file or the project, a `torch.nn`
 *  layer, a function of the file returning one, through `.to()`-like
 *  chains), and nothing in that scope (its nested functions included; at
 *  module level, outside classes' methods) loads weights (`load_state_dict`,
 *  `torch.load`, `restore`, `from_pretrained`...), trains (`.backward()`,
 *  `step`, `fit`, `.train()`, `.parameters()`) or hands `net` to a call
 *  that might (anything but `print`-like calls). Such a forward pass is a
 *  shape smoke test, not an evaluation of a trained model. */
bool facts_untrained_model(const facts *self, TSNode callee);
/* Whether top-level function FN of the file returns, on every return, a
 * model it builds fresh (a module class, a `torch.nn` layer, another such
 * function) and loads no weights into: a factory (`def create_b1(deploy):
 * return RepVGG(...)`). */
bool facts_builds_fresh_model(const facts *self, int fn);
/** Whether the function holding POS (module level: -1) calls .backward(). */
bool facts_function_backward_at(const facts *self, uint32_t pos);
/** Whether the function holding POS trains weights: it calls `.backward()`
 * itself, or through callees while it or they also step an optimizer (a
 * profiler's backward updates nothing); at module level, the file trains. */
bool facts_function_updates_at(const facts *self, uint32_t pos);
/** The per-iteration loop at POS calls something whose last name RE matches
 *  (MATCH decides), itself or in a function of this file it calls. */
bool facts_loop_calls(const facts *self, uint32_t pos, bool (*match)(void *ctx, const char *name, size_t len),
                      void *ctx);
/** The per-iteration loop at POS steps an optimizer only under a `%` test. */
bool facts_accumulates_gradients(const facts *self, uint32_t pos);
/** The number of accumulation steps of the loop at POS: the K of the
 *  `X % K == c` test that guards each of its optimizer steps (the same K
 *  for all of them); a null node when the loop does not accumulate or K
 *  cannot be told. */
TSNode facts_accumulation_steps(const facts *self, uint32_t pos);
/** Whether the call CALL gives float64 NumPy data: `.astype(np.float64)`
 *  (or `"float64"`, `float`, `np.double`), `np.float64(...)`, or a function
 *  of this file or of the project (SYM_FLOAT64) that returns such data. */
bool facts_float64_call(const facts *self, TSNode call);
/** Whether the name NODE was unpacked from an element a function (of this
 *  file or of the project) returns as float64 NumPy data: `X, y =
 *  make_data()` with `return np.random.randn(n, 8), labels`. */
bool facts_unpacked_float64(const facts *self, TSNode node);
/** Whether CALLEE returns its first argument moved to a device (a function
 *  of this file, or of the project: SYM_TO_DEVICE). */
bool facts_moves_arg_to_device(const facts *self, TSNode callee);
/** Whether the name NODE is taken batch by batch: subscripted in a
 *  per-iteration loop (any function's, for a module-level name), or given in
 *  one to a function of this file that subscripts it (`get_batch(train_data,
 *  i)`); for `self.x`, subscripted in its class. */
bool facts_batched_in_loop(const facts *self, TSNode node);
/** Whether NODE holds a whole dataset / a float64 NumPy array. */
bool facts_is_dataset(const facts *self, TSNode node);
bool facts_is_numpy_float64(const facts *self, TSNode node);
/** Whether CALL, a move to a device, is bound to `self.NAME` (alone or in
 *  a tuple assignment) where NAME reads as a dataset's samples (`data`,
 *  `images`, `all_fg_masks`), in a method of a class holding a dataset: a
 *  torch Dataset, a class of this file a Dataset derives from, or a class
 *  that indexes `self.NAME[...]` and defines `__getitem__`/`__iter__`/
 *  `__next__` or is named as a Dataset, DataModule, Iterator or Loader. */
bool facts_dataset_attribute(const facts *self, TSNode call);
/** Whether CALL, a move to a device in a loop that is not a batch loop, moves
 *  a tensor made from data (`torch.from_numpy(frame)`, `torch.load(path)`)
 *  that the loop keeps in a container made empty before it (`c.append(x)`,
 *  `c[i] = [x, y]`), which a batch loop of the same function then subscripts
 *  or iterates: every item on the device at once. */
bool facts_kept_per_item(const facts *self, TSNode call);
/** Whether NODE is (inside) the first argument of a trainable parameter:
 *  `nn.Parameter(NODE)`, `nn.Parameter(1e-5 + NODE)`, without
 *  `requires_grad=False`. */
bool facts_in_parameter(const facts *self, TSNode node);
/** Whether NODE's value is converted right away (`.float()`, `.to(dtype)`). */
bool facts_cast_after(const facts *self, TSNode node);
/** Whether the name NODE is subscripted inside a per-iteration loop. */
bool facts_sliced_in_loop(const facts *self, TSNode node);
/** Whether class name NODE derives from a class RE (MATCH) matches. */
bool facts_class_derives(const facts *self, TSNode node, bool (*match)(void *ctx, const char *name, size_t len),
                         void *ctx);
/** Whether the argument list ARGS passes KEYWORD a value made outside this
 *  file's constructors: a parameter, an alias, or a name bound on some
 *  branch from a call not named as a class (`parser.parse_json_file(...)` on
 *  one branch of an `if`, `parse_args_into_dataclasses()` on the other). */
bool facts_arg_from_outside(const facts *self, TSNode args, const char *keyword);
/** The function index named NAME (a same-file function or `self.method`), -1. */
int facts_function_named(const facts *self, TSNode callee);
/** The statement (the def, or its decorated definition) of the first
 *  definition of DEF's name after DEF in the same block, class body or
 *  module, looked up in the index of functions by name; a null node when
 *  there is none. */
TSNode facts_later_definition(const facts *self, TSNode def);
/** Whether COND is a name the file binds once, by an assignment of the
 *  literal `True` or `False` in the function that tests it (`loss_gen =
 *  True`, never changed): *VALUE then holds the literal. A branch the other
 *  value takes never runs. */
bool facts_constant_flag(const facts *self, TSNode cond, bool *value);

/** ts_node_child_by_field_id(NODE, FIELD), remembered while the facts are
 *  built: the analyses ask about the same nodes round after round, and
 *  tree-sitter finds a field by walking the children. */
TSNode facts__field(const facts *self, TSNode node, TSFieldId field);
#define FACT_FIELD(facts, node, name) facts__field((facts), (node), OOM_FIELD_##name)
/* Inside src/facts: whether CALL makes a module that holds no parameter: a
 * parameter-free torch.nn layer (`nn.LogSoftmax(dim=2)`), an instance of a
 * class of the file with no_parameters, an `nn.Sequential`,
 * `nn.ModuleList` or `nn.ModuleDict` of such modules only, or, bound to
 * NAME (LEN bytes), a data transform pipeline (resolve.c). */
bool facts__parameter_free_module(const facts *self, TSNode call, const char *name, uint32_t len);
/* Inside src/facts: whether EXPR, a with-item value or a decorator, turns gradients off
 * (`torch.no_grad()`, `torch.set_grad_enabled(False)`, a project's
 * `@smart_inference_mode()`). TMP is scratch. */
bool facts__no_grad_expr(const facts *self, TSNode expr, buf *tmp);
/* Inside src/facts: whether CALL is `loss_scaler(loss, optimizer, ...)`, a
 * scaler object's backward and step in one call (graph.c). */
bool facts__scaler_step(const facts *self, TSNode call);
/* Inside src/facts: the index in `assigns` of the last assignment to the
 * identifier NAME (LEN bytes) before POS in function FN, or -1. */
long facts__last_assign_before(const facts *self, const char *name, uint32_t len, uint32_t pos, int fn);
/* The same, looked for backwards from POS down to FN's start only (at
 * most 256 assignments): for names that are mostly parameters, assigned
 * nowhere, whose unbounded search would read the whole file before them. */
long facts__last_local_assign(const facts *f, const char *name, uint32_t len, uint32_t pos, int fn);
/* The position of the last binding of NAME (LEN bytes) in function FN
 * before POS, a target among several (`pred, _ = model(x)`) included, or
 * UINT32_MAX when there is none. */
uint32_t facts__last_binding_before(const facts *self, const char *name, uint32_t len, uint32_t pos, int fn);
/* The statement holding N: its ancestor whose parent is a block (or the
 * module); a null node when none is. */
TSNode facts__statement_of(TSNode n);
/* The first index of functions_by_name whose name is NAME (LEN bytes), or
 * where it would be. */
size_t facts__first_named(const facts *self, const char *name, uint32_t len);

/** The source text of NODE (clamped to the source) and its length. */
const char *facts_text(const facts *self, TSNode node, uint32_t *len);
/** Whether the source text of NODE equals S. */
bool facts_node_is(const facts *self, TSNode node, const char *s);
/** Whether the source text of NODE is the LEN bytes at S. */
bool facts_text_is(const facts *self, TSNode node, const char *s, uint32_t len);
/** Whether NEEDLE occurs in the LEN bytes at S, in any case ("Loss" in `train_loss`). */
bool facts_text_has_ci(const char *s, uint32_t len, const char *needle);
/* ARGS (an argument_list) holds only class counts (`n_classes`, `self.num_classes`, integers; at least one
 * name): what a network class is built with, no data of a forward pass */
bool facts__class_count_args(const facts *f, TSNode args);

#endif
