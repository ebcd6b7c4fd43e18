/* The project index's internals: where a file's project is and which folders
 * its absolute imports search (root.c), the module cache shared by threads
 * (index.c), and the summary each module is reduced to (summary.c). The
 * facts of a file read its imports' summaries through a project_view, the
 * facts_imports of that file; they never see another module's tree. */
#ifndef OOM_PROJECT_PROJECT_H
#define OOM_PROJECT_PROJECT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "facts/facts.h"
#include "oomlint/project.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/vec.h"

/* A module's summary is built from its text alone, so that what it says
 * never depends on which file of the run asked first, and import cycles
 * cost nothing. What depends on other modules is kept as references (a
 * class's bases, the callees a function returns or calls, by the names the
 * module imports them under) and followed when a lookup asks: class Net(Base)
 * with Base(Root) and Root(nn.Module) each in its own file, or a
 * `build_model()` returning a class of a third module. */

/* Bounds on what one index reads: hostile or huge trees cost a lookup that
 * fails (linted as without the index), never the run. */
#define PROJECT_MAX_MODULES 4096
#define PROJECT_MAX_MODULE_BYTES (4u << 20)
#define PROJECT_MAX_TOTAL_BYTES (512u << 20)
#define PROJECT_MAX_BASES 8  /* folders an absolute import searches */
#define PROJECT_MAX_HOPS 8   /* re-exports followed (`from .resnet import ResNet` in __init__.py) */
#define PROJECT_MAX_DEPTH 8  /* references followed from one lookup (bases of bases, callees of callees) */
#define PROJECT_MAX_REFS 24  /* references kept per function */
#define PROJECT_MAX_NEAR 256 /* files read for the callers of a file's functions (importer_calls) */
#define PROJECT_MAX_FAR 4096 /* ... when they are looked for in the whole project */
/* Trees parsed for a summary and kept for the file's own lint later in the
 * run (oom_project_expect), counted in bytes of their text: a tree takes
 * about ten times its text, so this bounds them near 200 MB */
#define PROJECT_MAX_KEPT_TEXT_BYTES (20u << 20)
/* Trees of linted files kept for a summary of them built later in the run
 * (project_offer_tree), the most recent first: most are never asked for,
 * and a tree takes some twenty-five times its text */
#define PROJECT_MAX_OFFERED_TEXT_BYTES (512u << 10)

/* ---- summaries (summary.c) ---- */

/* a module a summary or a lint read: its path and the hash of its text */
typedef struct {
  char *path;
  uint64_t hash;
} project_dep;

/* How a symbol depends on a name another module (or its own) defines */
enum {
  REF_BASE = 1,         /* a base class */
  REF_RETURN = 2,       /* the function returns what a call of it gives (`return Net(cfg).cuda()`) */
  REF_CALL = 4,         /* the function calls it */
  REF_CALL_IN_LOOP = 8  /* ... inside a loop of its own (its steps are not the caller's step) */
};

typedef struct {
  char *name;           /* a qualname as the module imports it ("base.Base", "..layers.Block"), or ":" and
                           the name of a class or function of the same module */
  uint8_t kind;         /* REF_* */
} project_ref;

typedef struct {
  char *name;          /* "RNNModel", "build_model", "Trainer.evaluate", "model" */
  facts_symbol symbol; /* what the module alone says */
  project_ref *refs;
  uint8_t nrefs;
} project_symbol;

typedef struct {
  char *name;          /* the name bound at module level */
  char *qualname;      /* what it imports: "torch.nn", ".resnet.ResNet" */
} project_import;

/* A call the module makes, by the name it calls: "evaluate" (a function,
 * or a method of another object: `trainer.evaluate(...)`), or
 * "Trainer.evaluate" (`self.evaluate(...)` in a method of the module's
 * class Trainer). Who calls a function with gradients off is read here. */
#define PROJECT_MAX_GRAD_CALLERS 4
typedef struct {
  char *name;
  uint8_t how;           /* FACTS_CALLED_* of all its calls */
  /* the functions (or methods, by their own name) making its calls with
   * gradients on, for a caller of theirs to speak for them; NGRAD_IN is
   * PROJECT_GRAD_CALLERS_UNKNOWN when there are more, or one is at module
   * level */
  uint8_t ngrad_in;
  char *grad_in[PROJECT_MAX_GRAD_CALLERS];
} project_call;
#define PROJECT_GRAD_CALLERS_UNKNOWN 255

typedef struct project_summary {
  int refs;                 /* under the index's lock */
  arena arena;              /* everything below */
  project_symbol *symbols;  /* sorted by name */
  size_t nsymbols;
  project_import *imports;  /* sorted by name */
  size_t nimports;
  project_call *calls;      /* sorted by name, each name once */
  size_t ncalls;
  project_dep self;         /* the module it was built from */
  char **sys_path;          /* folders its `sys.path` lines add, in search order, where its imports resolve */
  int nsys_path;
} project_summary;

struct project_module;
struct project_view;
/** Reduce the facts F of the module M (built alone) to its summary. SCAN is
 *  a view of M whose search folders include its sys.path lines. */
project_summary *project_summary_build(const facts *f, const struct project_module *m, const struct project_view *scan);
void project_summary_free(project_summary *s);
/** The symbol NAME (LEN bytes) of S, or NULL. */
const project_symbol *project_summary_find(const project_summary *s, const char *name, size_t len);
/** How S calls NAME (LEN bytes), as project_call names it: FACTS_CALLED_*
 *  bits, 0 when it does not. */
uint8_t project_summary_calls(const project_summary *s, const char *name, size_t len);
/** The entry of S for calls of NAME (LEN bytes), or NULL. */
const project_call *project_summary_call(const project_summary *s, const char *name, size_t len);
/** The module-level import binding NAME (LEN bytes) of S, or NULL. */
const project_import *project_summary_import(const project_summary *s, const char *name, size_t len);

/* ---- modules and the index (index.c) ---- */

typedef struct project_module {
  int refs;                 /* under the index's lock: lookups in progress and the index's own */
  bool detached;            /* replaced or forgotten: freed when no one holds it */
  char *path;               /* absolute */
  char *text;
  size_t length;
  uint64_t hash;            /* cache_hash of TEXT, as the result cache hashes files */
  bool readable;            /* false: unreadable, too big, or binary (then TEXT may be NULL) */
  project_summary *summary; /* built on first use */
  TSTree *tree;             /* under the lock: the tree the summary was built from, kept for the run's lint of
                               this file (oom_project_expect), until project_take_tree */
} project_module;

typedef struct {
  char *path;
  char *text;
  size_t length;
} project_overlay;

struct oom_project {
  pthread_mutex_t lock;
  struct project_maps *maps;       /* by path: live modules, file tests, overlays (index.c) */
  VEC(project_module *) all;       /* every module not yet freed, live or detached */
  size_t total_bytes;              /* of the live modules' texts */
  uint64_t generation;             /* bumped by every change (a module read before it is not stored) */
  size_t kept_bytes;               /* text bytes of the modules whose trees are kept */
  size_t offered_bytes;            /* text bytes of the linted files whose trees are offered */
  bool batch;                      /* a run that lints many files (oom_project_expect was called) */
  char *cwd;                       /* the working folder when the project was made: relative paths are
                                      taken against it (asked once, not per file) */
};

/** The module at absolute PATH, read on first use, held for the
 *  caller (project_module_release); NULL when it cannot be read, is over a
 *  bound, or is not Python. */
project_module *project_module_get(oom_project *self, const char *path);
void project_module_release(oom_project *self, project_module *m);
/** The summary of M, built on first use, held for the caller
 *  (project_summary_release); NULL when M is not readable. */
project_summary *project_summary_get(oom_project *self, project_module *m);
void project_summary_release(oom_project *self, project_summary *s);
/** The tree of the file at PATH (any form project_absolute_in takes) whose
 *  text is TEXT, when the index parsed that text for a summary and kept the
 *  tree for this lint (oom_project_expect): the caller owns it. NULL
 *  otherwise; either way the file is no longer expected. */
TSTree *project_take_tree(oom_project *self, const char *path, const char *text, size_t length);
/** Keeps a copy of TREE, the lint's parse of PATH's TEXT (LENGTH bytes),
 *  for a summary of PATH built later in the run, so the file is not parsed
 *  twice either way round; only in a batch run (oom_project_expect) and
 *  within PROJECT_MAX_KEPT_TEXT_BYTES. The caller keeps TREE. */
void project_offer_tree(oom_project *self, const char *path, const char *text, size_t length, const TSTree *tree);
/** Whether PATH is a regular file (memoized; overlays count as files). */
bool project_is_file(oom_project *self, const char *path);
/** Whether anything is at PATH (memoized): a file, a folder, a link. */
bool project_exists(oom_project *self, const char *path);

/* ---- a file's view of its project (root.c, view.c) ---- */

typedef struct project_view {
  facts_imports imports;    /* first: the facts see only this */
  oom_project *project;
  char *path;               /* the importer, absolute */
  char *dir;                /* its folder */
  /* the project root's name and the folder above it: when the root is a
   * package itself (`graphsaint/` holding setup.py and __init__.py),
   * imports of that name are also searched there (root.c); NULL for a
   * module's own view */
  char *package_name, *package_above;
  char *bases[PROJECT_MAX_BASES]; /* where absolute imports are searched, in order */
  int nbases;
  VEC(project_dep) deps;    /* the modules read so far, each once */
  strmap memo;              /* qualname -> project_memo: the facts ask the same names again and again */
  strmap resolved;          /* "path:name" -> project_memo: symbols with their references followed */
  strmap calls;             /* "Base:method" and "<name" -> uint8_t FACTS_CALLED_*: base_calls, importer_calls */
  VEC(char *) near;         /* the Python files of its folder and of the folders above it up to the root */
  VEC(char *) far;          /* every Python file of its project */
  bool near_listed, far_listed;
} project_view;

typedef struct {
  bool found, busy;         /* BUSY: being resolved (a cycle of references reads what the module alone says) */
  facts_symbol symbol;
} project_memo;

/** A view for the file at PATH (absolute or relative to the working
 *  folder). ROOT_NODE and SOURCE, when given, are the file's tree and text:
 *  `sys.path.append(...)` of a literal folder next to it adds a search
 *  folder. */
void project_view_init(project_view *self, oom_project *project, const char *path, TSNode root_node,
                       const char *source, size_t length);
/* Adds the folder above the top package that holds the view's module, for
 * a module imported from another file (see view.c). */
void project_view_add_package_parent(project_view *self, oom_project *project);
void project_view_free(project_view *self);

/** The project root of the file at absolute PATH: the nearest folder above
 *  it holding pyproject.toml, setup.py, setup.cfg, oomlint.toml,
 *  .oomlint.toml or .git; its own folder when none does. Malloc'd. */
char *project_root_of(oom_project *self, const char *path);
/** PATH made absolute against SELF's working folder (asked once, when
 *  SELF was made), `.` and `..` folded. */
char *project_absolute_in(const oom_project *self, const char *path);
/** Resolve QUALNAME (dotted; relative ones with leading dots) as VIEW's file
 *  imports it: the module's absolute path (malloc'd) and, in *REST, where
 *  the attribute chain after the module begins in QUALNAME ("" when it
 *  names the module). NULL when no module of the project matches. */
char *project_resolve(const project_view *view, const char *importer_dir, const char *qualname, const char **rest);

/** Append to the search folders of VIEW those `sys.path.append(...)` or
 *  `sys.path.insert(0, ...)` at module level of its file names with a literal
 *  (relative to the file's folder: `"../lib"`, `os.path.join(
 *  os.path.dirname(__file__), "..")`), when they lie under ROOT, the
 *  file's project root. */
void project_view_scan_sys_path(project_view *self, const char *root, TSNode root_node, const char *source,
                                size_t length);

#endif
