/* This file contains the estimate's entry point: run the file, pick the models it builds,
 * and add up parameters (once each), parts, and bytes of weights, gradients, state and input. */
#include <string.h>

#include "estimate/activations.h"
#include "estimate/interp.h"
#include "parse/fields.h"


typedef AVEC(const char *) strlist;
typedef AVEC(obj *) objlist;

/* ---- what one model holds ---- */

typedef struct {
  const void *key; /* the layer that made the parameters (or the parameter) */
  TSNode site;
  const char *label;
  int64_t count;
} owner_sum;

typedef struct {
  interp *st;
  AVEC(owner_sum) owners;
  AVEC(param *) params;
  AVEC(obj *) mods;
  int64_t count, trainable, weight_bytes, trainable_bytes, weight_bits;
  const char *dtype;
  bool mixed;
} tally;


static void on_param(void *ctx, param *p, const char *path) {
  (void)path;
  tally *t = ctx;
  interp *st = t->st;
  t->count += p->count;
  int64_t bytes = (p->count * p->bits + 7) / 8;
  t->weight_bytes += bytes;
  t->weight_bits += p->count * p->bits;
  if (p->trainable) {
    t->trainable += p->count;
    t->trainable_bytes += bytes;
  }
  if (!t->dtype) t->dtype = p->dtype;
  else if (strcmp(t->dtype, p->dtype) != 0) t->mixed = true;
  avec_push(st->a, &t->params, p);
  const void *key = p->owner ? (const void *)p->owner : (const void *)p;
  for (uint32_t i = t->owners.len; i-- > 0;)
    if (t->owners.items[i].key == key) {
      t->owners.items[i].count += p->count;
      return;
    }
  owner_sum o = {key, p->site, p->label ? p->label : (p->owner && p->owner->label ? p->owner->label : "parameter"),
                 p->count};
  avec_push(st->a, &t->owners, o);
}


static void on_module(void *ctx, obj *m, const char *path) {
  (void)path;
  tally *t = ctx;
  avec_push(t->st->a, &t->mods, m);
}


static bool holds_module(const tally *t, const obj *m) {
  for (uint32_t i = 0; i < t->mods.len; i++)
    if (t->mods.items[i] == m) return true;
  return false;
}


static bool holds_param(const tally *t, const param *p) {
  for (uint32_t i = 0; i < t->params.len; i++)
    if (t->params.items[i] == p) return true;
  return false;
}


static void add_unknown(interp *st, strlist *list, const char *s) {
  for (uint32_t i = 0; i < list->len; i++)
    if (!strcmp(list->items[i], s)) return;
  avec_push(st->a, list, s);
}


static void group_parts(interp *st, tally *t, estimate_model *m) {
  AVEC(estimate_part) parts = {0};
  AVEC(uint32_t) starts = {0};
  for (uint32_t i = 0; i < t->owners.len; i++) {
    owner_sum *o = &t->owners.items[i];
    uint32_t start = ts_node_is_null(o->site) ? 0 : ts_node_start_byte(o->site);
    const char *file = NULL;
    if (!ts_node_is_null(o->site) && o->site.tree != st->main_tree) file = st_module_of(st, o->site)->shown;
    bool merged = false;
    for (uint32_t k = 0; k < parts.len && !merged; k++) {
      estimate_part *p = &parts.items[k];
      if (starts.items[k] == start && p->file == file && !strcmp(p->layer, o->label) && p->parameters / p->repeat == o->count) {
        p->repeat++;
        p->parameters += o->count;
        merged = true;
      }
    }
    if (merged) continue;
    estimate_part p = {file, ts_node_is_null(o->site) ? 0 : st_line(st, o->site), o->label, 1, o->count};
    avec_push(st->a, &parts, p);
    avec_push(st->a, &starts, start);
  }
  m->parts = parts.items;
  m->nparts = parts.len;
}


static obj *find_optimizer(interp *st, obj *root, tally *t) {
  if (root->optimizer) return root->optimizer;
  for (uint32_t i = 0; i < st->optimizers.len; i++) {
    obj *o = st->optimizers.items[i];
    if (o->opt_module && holds_module(t, o->opt_module)) return o;
    if (o->opt_param && holds_param(t, o->opt_param)) return o;
    for (uint32_t k = 0; k < o->opt_params.len; k++)
      if (holds_param(t, o->opt_params.items[k])) return o;
  }
  return NULL;
}


/* Where the script builds ROOT: its constructor, or the script's call of
 * the function of another module that built it; null when neither is in
 * the script (the table's line is then 0 and OOM601 has no place to report). */
static TSNode model_site(interp *st, const obj *root) {
  TSNode site = root->site;
  if (!ts_node_is_null(site) && site.tree != st->main_tree) site = root->call_site;
  return site;
}


/* Why the run stopped: the construct under way that spent the budget. */
static const char *stop_reason(interp *st) {
  buf b = {0};
  buf_printf(&b, "the estimate stopped early: the file takes too long to follow (%ld steps)", (long)EST_MAX_STEPS);
  if (!ts_node_is_null(st->stop_site)) {
    uint32_t n;
    const char *t = st_text(st, st->stop_site, &n);
    uint32_t k = 0;
    while (k < n && k < 60 && t[k] != '\n') k++;
    buf_printf(&b, "; the budget ran out in `%.*s` (%s)", (int)k, t, st_at(st, st->stop_site));
    if (!ts_node_eq(st->stop_inner, st->stop_site)) {
      t = st_text(st, st->stop_inner, &n);
      k = 0;
      while (k < n && k < 60 && t[k] != '\n') k++;
      buf_printf(&b, ", inside `%.*s` (%s)", (int)k, t, st_at(st, st->stop_inner));
    }
  }
  buf_printf(&b, "; the models built before it are counted, what it builds is not");
  const char *s = st_strdup(st, b.data, b.len);
  buf_free(&b);
  return s;
}


/* Returns how many things about the model's own layers are not known. */
static uint32_t fill_model(interp *st, obj *root, estimate_model *m, estimate_result *out) {
  tally t;
  memset(&t, 0, sizeof t);
  t.st = st;
  module_each(st, root, on_module, &t);
  module_params(st, root, on_param, &t);
  m->name = root->name ? root->name : root->type;
  m->klass = root->type ? root->type : "module";
  TSNode site = model_site(st, root);
  if (ts_node_is_null(site) && !ts_node_is_null(root->site)) {
    m->file = st_module_of(st, root->site)->shown;
    m->line = st_line(st, root->site);
  } else if (!ts_node_is_null(site)) {
    m->line = st_line(st, site);
    m->start = ts_node_start_byte(site);
    m->end = ts_node_end_byte(site);
  }
  m->built = !root->defined_only;
  m->parameters = t.count;
  m->trainable = t.trainable;
  m->dtype = t.mixed ? "mixed" : t.dtype ? t.dtype : st->default_dtype;
  m->weights_bytes = t.weight_bytes;
  m->weight_bits_total = t.weight_bits;
  group_parts(st, &t, m);

  strlist unknown = {0};
  strlist notes = {0};
  for (uint32_t i = 0; i < t.mods.len; i++) {
    obj *x = t.mods.items[i];
    for (uint32_t k = 0; k < x->unknowns.len; k++) add_unknown(st, &unknown, x->unknowns.items[k]);
  }
  for (uint32_t i = 0; i < st->loose.len; i++)
    if (st->loose.items[i].module && holds_module(&t, st->loose.items[i].module))
      add_unknown(st, &unknown, st->loose.items[i].text);
  uint32_t own = unknown.len;
  for (uint32_t i = 0; i < st->loose.len; i++)
    if (!st->loose.items[i].module) add_unknown(st, &unknown, st->loose.items[i].text);
  for (uint32_t i = 0; i < st->ties.len; i++)
    if (holds_module(&t, st->ties.items[i].owner)) add_unknown(st, &notes, st->ties.items[i].text);

  obj *opt = find_optimizer(st, root, &t);
  bool trains = opt || st->f->file_backward;
  m->optimizer_state_bytes_per_param = 0;
  if (opt) {
    m->optimizer = opt->opt_name;
    if (opt->opt_fixed_bytes >= 0) {
      m->optimizer_bytes = t.trainable * opt->opt_fixed_bytes;
      m->optimizer_state_bytes_per_param = opt->opt_fixed_bytes;
    } else if (opt->opt_states >= 0) {
      for (uint32_t i = 0; i < t.params.len; i++) {
        param *p = t.params.items[i];
        if (p->trainable) m->optimizer_bytes += (p->count * p->bits * opt->opt_states + 7) / 8;
      }
      m->optimizer_state_bytes_per_param = t.trainable ? (int)(m->optimizer_bytes / t.trainable) : 0;
    } else {
      m->optimizer_state_bytes_per_param = -1;
      buf b = {0};
      buf_printf(&b, "the state size of %s is not known: optimizer state not counted", opt->opt_name);
      add_unknown(st, &unknown, st_strdup(st, b.data, b.len));
      buf_free(&b);
    }
  } else if (trains && t.trainable) {
    add_unknown(st, &unknown, "no optimizer of this model is found in this file: optimizer state not counted");
  }
  m->gradients_bytes = trains ? t.trainable_bytes : 0;
  if (!trains) add_unknown(st, &notes, "this file does not train (no backward pass, no optimizer): no gradients counted");

  m->input_bytes = root->input_bytes;
  for (uint32_t i = 0; m->input_bytes < 0 && i < st->batches.len; i++) {
    batch_note *bn = &st->batches.items[i];
    if (bn->input_bytes >= 0 && (bn->module == root || (!bn->module && out->nmodels == 1)))
      m->input_bytes = bn->input_bytes;
  }
  m->sharded = root->sharded || st->sharded;
  if (m->sharded)
    add_unknown(st, &notes, "FSDP/DeepSpeed shards weights, gradients and optimizer state across the processes; "
                                    "the figures are for one unsharded copy");
  m->total_bytes = m->weights_bytes + m->gradients_bytes + m->optimizer_bytes + (m->input_bytes > 0 ? m->input_bytes : 0);
  if (st->stopped)
    add_unknown(st, &unknown, stop_reason(st));
  m->unknown = unknown.items;
  m->nunknown = unknown.len;
  m->notes = notes.items;
  m->nnotes = notes.len;
  act_fill(st, root, m); /* activations and the whole step: activations.c, step.c */
  m->accumulation = act_accumulation(st);
  m->world_size = m->sharded ? act_world_size(st) : 1;
  estimate_step(m);
  return own;
}


/* ---- models a file defines but does not build ---- */

static bool instantiated(interp *st, const klass *k) {
  for (uint32_t i = 0; i < st->modules.len; i++)
    if (st->modules.items[i]->klass && class_derives(st->modules.items[i]->klass, k)) return true;
  return false;
}


static bool is_base(interp *st, const klass *k) {
  for (uint32_t i = 0; i < st->globals->vars.len; i++) {
    value *v = st->globals->vars.items[i].v;
    if (v->kind != V_CLASS || v->u.klass == k) continue;
    for (uint32_t b = 0; b < v->u.klass->bases.len; b++)
      if (v->u.klass->bases.items[b]->kind == V_CLASS && v->u.klass->bases.items[b]->u.klass == k) return true;
  }
  return false;
}


/* The arguments that build K with its defaults, a dataclass config for a
 * parameter annotated with one; false when some parameter has neither. */
static bool default_args(interp *st, klass *k, args *a, const char **missing) {
  value *init = class_attr(st, k, "__init__", 8, NULL);
  if (!init) {
    /* `class Linear(nn.Linear): ...` takes nn.Linear's arguments */
    for (uint32_t i = 0; i < k->bases.len; i++)
      if (k->bases.items[i]->kind == V_EXTERN && !layer_is_free(k->bases.items[i]->u.ext) &&
          strncmp(k->bases.items[i]->u.ext, "torch.nn.", 9) == 0 && strcmp(k->bases.items[i]->u.ext, "torch.nn.Module") != 0) {
        *missing = "the layer's arguments";
        return false;
      }
    return true;
  }
  if (init->kind != V_FUNCTION) return false;
  TSNode params = FIELD(init->u.fn.node, parameters);
  uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  for (uint32_t i = 1; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    const char *type = ts_node_type(p);
    if (!strcmp(type, "default_parameter") || !strcmp(type, "typed_default_parameter") ||
        !strcmp(type, "list_splat_pattern") || !strcmp(type, "dictionary_splat_pattern") ||
        !strcmp(type, "keyword_separator") || !strcmp(type, "positional_separator"))
      continue;
    if (!strcmp(type, "typed_parameter")) {
      TSNode t = FIELD(p, type);
      TSNode name = ts_node_named_child(p, 0);
      if (!ts_node_is_null(t) && ts_node_named_child_count(t)) t = ts_node_named_child(t, 0);
      uint32_t tn;
      const char *tt = ts_node_is_null(t) ? "" : st_text(st, t, &tn);
      value *cv = ts_node_is_null(t) ? NULL : scope_get(st, st->globals, tt, tn);
      if (cv && cv->kind == V_CLASS && cv->u.klass->dataclass && !ts_node_is_null(name)) {
        args none;
        memset(&none, 0, sizeof none);
        none.node = cv->u.klass->node;
        uint32_t nn;
        const char *nm = st_text(st, name, &nn);
        args_add_kw(st, a, st_strdup(st, nm, nn), instantiate(st, cv->u.klass, &none));
        continue;
      }
    }
    TSNode name = ts_node_named_child_count(p) ? ts_node_named_child(p, 0) : p;
    if (!strcmp(type, "identifier")) name = p;
    uint32_t nn;
    const char *nm = st_text(st, name, &nn);
    *missing = st_strdup(st, nm, nn);
    return false;
  }
  return true;
}


static void build_defined(interp *st, estimate_result *out, objlist *roots) {
  AVEC(const char *) skipped = {0};
  for (uint32_t i = st->globals->vars.len; i-- > 0 && !st->stopped;) {
    value *v = st->globals->vars.items[i].v;
    if (v->kind != V_CLASS || !v->u.klass->is_module) continue;
    klass *k = v->u.klass;
    if (instantiated(st, k) || is_base(st, k)) continue;
    args a;
    memset(&a, 0, sizeof a);
    a.node = k->node;
    const char *missing = NULL;
    if (!default_args(st, k, &a, &missing)) {
      buf b = {0};
      buf_printf(&b, "%.*s is defined but not built in this file (its constructor needs `%s`)", (int)k->name.n, k->name.s,
                 missing ? missing : "arguments");
      avec_push(st->a, &skipped, st_strdup(st, b.data, b.len));
      buf_free(&b);
      continue;
    }
    value *m = instantiate(st, k, &a);
    obj *o = m->u.obj;
    o->named = true;
    o->name = o->type;
    o->defined_only = true;
    buf b = {0};
    buf_printf(&b, "%.*s is not built in this file: counted with its constructor's default arguments", (int)k->name.n,
               k->name.s);
    avec_push(st->a, &o->unknowns, st_strdup(st, b.data, b.len));
    buf_free(&b);
    avec_push(st->a, roots, o);
  }
  /* the classes skipped whose parts another built class did not use */
  AVEC(const char *) file = {0};
  for (uint32_t i = 0; i < out->nunknown; i++) avec_push(st->a, &file, out->unknown[i]);
  for (uint32_t i = 0; i < skipped.len; i++) avec_push(st->a, &file, skipped.items[i]);
  out->unknown = file.items;
  out->nunknown = file.len;
}


/* Lightning builds the optimizer from configure_optimizers() */
static void lightning_optimizers(interp *st, obj *root) {
  if (!root->klass || root->optimizer) return;
  for (uint32_t i = 0; i < st->optimizers.len; i++)
    if (st->optimizers.items[i]->opt_module == root) return;
  klass *found = NULL;
  value *fn = class_attr(st, root->klass, "configure_optimizers", 20, &found);
  if (!fn || fn->kind != V_FUNCTION) return;
  value *b = v_new(st, V_FUNCTION);
  *b = *fn;
  b->u.fn.self = v_obj(st, root);
  b->u.fn.owner = found;
  args none;
  memset(&none, 0, sizeof none);
  none.node = root->site;
  call_value(st, b, &none);
}


void estimate_run(const facts *f, estimate_result *out) {
  estimate_run_with(f, NULL, out);
}


void estimate_run_with(const facts *f, const estimate_input *in, estimate_result *out) {
  memset(out, 0, sizeof *out);
  interp st;
  memset(&st, 0, sizeof st);
  st.f = f;
  st.in = in;
  st.main_tree = f->root.tree;
  st.src = f->source;
  st.len = f->length;
  st.a = &out->arena;
  st.default_bits = 32;
  st.default_dtype = "float32";
  st.none = v_new(&st, V_NONE);
  st.unknown = v_unknown(&st, "a value that is not known");
  act_begin(&st);
  st.globals = scope_new(&st, NULL);
  est_module *self = arena_calloc(st.a, sizeof *self);
  self->tree = f->root.tree;
  self->src = f->source;
  self->len = f->length;
  self->shown = in && in->path ? in->path : NULL;
  self->f = f;
  self->globals = st.globals;
  avec_push(st.a, &st.mods, self);
  exec_block(&st, st.globals, f->root);

  objlist roots = {0};
  for (uint32_t i = 0; i < st.modules.len; i++) {
    obj *m = st.modules.items[i];
    for (uint32_t k = 0; k < m->attrs->vals.len; k++) {
      value *v = m->attrs->vals.items[k];
      if (v->kind == V_OBJECT && v->u.obj->kind == OBJ_MODULE && v->u.obj != m) v->u.obj->child = true;
    }
    for (uint32_t k = 0; m->items && k < m->items->items.len; k++) {
      value *v = m->items->items.items[k];
      if (v->kind == V_OBJECT && v->u.obj->kind == OBJ_MODULE && v->u.obj != m) v->u.obj->child = true;
    }
  }
  for (uint32_t i = 0; i < st.optimizers.len; i++) {
    obj *m = st.optimizers.items[i]->opt_module;
    if (m && !m->named) {
      m->named = true;
      m->name = m->type;
    }
  }
  for (uint32_t i = 0; i < st.modules.len; i++) {
    obj *m = st.modules.items[i];
    if (m->named && !m->prototype && !m->child) avec_push(st.a, &roots, m);
  }
  if (!roots.len) build_defined(&st, out, &roots);
  for (uint32_t i = 0; i < roots.len; i++) lightning_optimizers(&st, roots.items[i]);

  AVEC(estimate_model) models = {0};
  for (uint32_t i = 0; i < roots.len; i++) {
    estimate_model m;
    memset(&m, 0, sizeof m);
    out->nmodels = roots.len;
    uint32_t own = fill_model(&st, roots.items[i], &m, out);
    /* layers built for their own sake (a loss, an activation) are not models */
    if (m.parameters == 0 && own == 0) continue;
    avec_push(st.a, &models, m);
  }
  out->models = models.items;
  out->nmodels = models.len;

  AVEC(estimate_batch) batches = {0};
  for (uint32_t i = 0; i < st.batches.len; i++) {
    batch_note *bn = &st.batches.items[i];
    estimate_batch b;
    memset(&b, 0, sizeof b);
    if (!v_as_int(bn->size, &b.size)) continue;
    b.literal = !ts_node_is_null(bn->size->origin);
    if (b.literal) {
      b.start = ts_node_start_byte(bn->size->origin);
      b.end = ts_node_end_byte(bn->size->origin);
    }
    b.where = bn->where;
    b.input_bytes = bn->input_bytes;
    b.model = -1;
    for (uint32_t k = 0; k < roots.len; k++) {
      if (bn->module != roots.items[k] && !(bn->module == NULL && out->nmodels == 1)) continue;
      /* the index among the models kept */
      for (uint32_t j = 0; j < out->nmodels; j++)
        if (out->models[j].start == (ts_node_is_null(model_site(&st, roots.items[k])) ? 0 : ts_node_start_byte(model_site(&st, roots.items[k]))) &&
            !strcmp(out->models[j].klass, roots.items[k]->type ? roots.items[k]->type : "module"))
          b.model = (int)j;
      break;
    }
    avec_push(st.a, &batches, b);
  }
  out->batches = batches.items;
  out->nbatches = batches.len;
  if (st.stopped) {
    AVEC(const char *) file = {0};
    for (uint32_t i = 0; i < out->nunknown; i++) avec_push(st.a, &file, out->unknown[i]);
    avec_push(st.a, &file, stop_reason(&st));
    out->unknown = file.items;
    out->nunknown = file.len;
  }
  buf_free(&st.tmp);
  script_free(&st);
}


void estimate_free(estimate_result *r) {
  arena_free(&r->arena);
  memset(r, 0, sizeof *r);
}
