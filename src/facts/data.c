/* Where the training data lives and in what dtype: datasets and their
 * attributes moved to the device whole (a dataset class's samples, a
 * loading loop's list, a module-level array sliced per batch), NumPy
 * float64 arrays, casts after them, and float64 parameters. Split from
 * contexts.c, which asks about loops, storage and evaluation. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/fields.h"
#include "facts/facts.h"

#include "parse/node.h"
#include "parse/walk.h"


/* The elements of a tuple or pattern list, without the comments and line
 * continuations (`\\`) tree-sitter counts among its named children:
 * their number, and ELEMS[i] for the first MAX of them. */
static uint32_t elements(TSNode list, TSNode *elems, uint32_t max) {
  uint32_t n = ts_node_named_child_count(list), k = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(list, i);
    if (ts_node_is_extra(c)) continue;
    if (k < max) elems[k] = c;
    k++;
  }
  return k;
}


static bool contains_pos(TSNode n, uint32_t pos) {
  return ts_node_start_byte(n) <= pos && pos < ts_node_end_byte(n);
}


/* The element a tuple assignment `a, b = x, y` gives the name bound at POS
 * (`y` for `b`), or null when no such assignment binds it there. */
static TSNode tuple_element(const facts *f, uint32_t pos) {
  TSNode id = ts_node_named_descendant_for_byte_range(f->root, pos, pos + 1);
  TSNode list = ts_node_is_null(id) ? id : ts_node_parent(id);
  if (ts_node_is_null(list) || !(NODE_IS(list, "pattern_list") || NODE_IS(list, "tuple_pattern"))) return NULL_NODE;
  TSNode assign = ts_node_parent(list);
  if (ts_node_is_null(assign) || !NODE_IS(assign, "assignment")) return NULL_NODE;
  TSNode right = FIELD(assign, right);
  if (ts_node_is_null(right) || !(NODE_IS(right, "expression_list") || NODE_IS(right, "tuple"))) return NULL_NODE;
  TSNode targets[FACTS_MAX_ELEMS], values[FACTS_MAX_ELEMS];
  uint32_t n = elements(list, targets, FACTS_MAX_ELEMS);
  if (n > FACTS_MAX_ELEMS || n != elements(right, values, FACTS_MAX_ELEMS)) return NULL_NODE;
  for (uint32_t i = 0; i < n; i++)
    if (ts_node_eq(targets[i], id)) return values[i];
  return NULL_NODE;
}


/* The value last assigned to identifier NODE before its position, or null:
 * by `x = v`, or element-wise by `x, y = v, w`. An assignment whose value
 * holds NODE (`x = torch.from_numpy(x)`) gives what NODE held before it. */
static TSNode last_value(const facts *f, TSNode node) {
  uint32_t len;
  const char *name = facts_text(f, node, &len);
  uint32_t pos = ts_node_start_byte(node), best_pos = 0;
  TSNode best = NULL_NODE;
  for (size_t i = 0; i < f->assigns.len; i++) {
    TSNode left = f->assigns.items[i].left, right = f->assigns.items[i].right;
    if (ts_node_start_byte(left) >= pos) break;
    if (NODE_IS(left, "identifier") && facts_text_is(f, left, name, len) && !contains_pos(right, pos)) {
      best = right;
      best_pos = ts_node_start_byte(left);
    }
  }
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  for (size_t i = first; i < end; i++) {
    const facts_binding *b = &f->bindings.items[i];
    if (b->pos >= pos) break;
    if (b->pos <= best_pos && !ts_node_is_null(best)) continue;
    TSNode v = tuple_element(f, b->pos);
    if (!ts_node_is_null(v) && !contains_pos(v, pos)) {
      best = v;
      best_pos = b->pos;
    }
  }
  return best;
}


static bool lower_matches_any(const char *s, size_t len, const char *const *exact) {
  char lower[64];
  if (len >= sizeof lower) return false;
  for (size_t i = 0; i < len; i++) lower[i] = (char)tolower((unsigned char)s[i]);
  lower[len] = '\0';
  for (size_t i = 0; exact[i]; i++)
    if (!strcmp(lower, exact[i])) return true;
  return false;
}


bool facts_is_dataset(const facts *self, TSNode node) {
  buf q = {0};
  bool r = false;
  for (int guard = 0; guard < 6 && !ts_node_is_null(node) && !r; guard++) {
    if (NODE_IS(node, "identifier")) {
      uint32_t len;
      const char *t = facts_text(self, node, &len);
      static const char *const names[] = {"x_train", "y_train", "x_test", "y_test", "x_val", "y_val", "x_valid",
                                          "y_valid", "xtrain", "ytrain", "xtest", "ytest", "train_x", "train_y",
                                          "test_x", "test_y", "val_x", "val_y", "train_data", "test_data",
                                          "val_data", "train_images", "train_labels", "test_images",
                                          "test_labels", "train_inputs", "train_targets", "train_features",
                                          "x_all", "y_all", NULL};
      if (lower_matches_any(t, len, names)) r = true;
      else node = last_value(self, node);
      continue;
    }
    if (NODE_IS(node, "attribute")) {
      TSNode attr = FIELD(node, attribute);
      TSNode obj = FIELD(node, object);
      uint32_t len;
      const char *o = facts_text(self, obj, &len);
      bool setlike = false;
      for (uint32_t k = 0; k + 3 <= len; k++)
        if (!strncasecmp(o + k, "set", 3) || (k + 5 <= len && !strncasecmp(o + k, "mnist", 5))) setlike = true;
      if ((facts_node_is(self, attr, "data") || facts_node_is(self, attr, "targets")) && setlike) r = true;
      else node = obj; /* a column, `.values` of a frame: as much data as the frame */
      continue;
    }
    if (NODE_IS(node, "subscript")) {
      node = FIELD(node, value); /* `frame["label"]` */
      continue;
    }
    if (!NODE_IS(node, "call")) break;
    TSNode fn = FIELD(node, function);
    if (!facts_qualname(self, fn, &q)) {
      /* `x.to_numpy()`, `x.values` of a frame, `x.float()` of a tensor */
      if (!ts_node_is_null(fn) && NODE_IS(fn, "attribute")) {
        node = FIELD(fn, object);
        continue;
      }
      break;
    }
    const char *s = buf_str(&q);
    if (!strcmp(s, "numpy.load") || !strcmp(s, "numpy.loadtxt") || !strcmp(s, "numpy.genfromtxt") ||
        !strcmp(s, "numpy.fromfile") || !strncmp(s, "pandas.read_", 12))
      r = true;
    else if (!strcmp(s, "torch.tensor") || !strcmp(s, "torch.from_numpy") || !strcmp(s, "torch.as_tensor") ||
             !strcmp(s, "torch.Tensor") || !strcmp(s, "torch.FloatTensor") || !strcmp(s, "numpy.array") ||
             !strcmp(s, "numpy.asarray")) {
      TSNode args = FIELD(node, arguments);
      node = ts_node_is_null(args) || !ts_node_named_child_count(args) ? NULL_NODE : ts_node_named_child(args, 0);
    } else {
      break;
    }
  }
  buf_free(&q);
  return r;
}


static bool has_keyword(const facts *f, TSNode args, const char *name) {
  uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (NODE_IS(a, "dictionary_splat")) return true;
    if (NODE_IS(a, "keyword_argument") && facts_node_is(f, FIELD(a, name), name)) return true;
  }
  return false;
}


static bool has_float_literal(TSNode n) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  bool found = false;
  for (int guard = 0; guard < 100000 && !found; guard++) {
    TSNode k = ts_tree_cursor_current_node(&c);
    if (NODE_IS(k, "float")) found = true;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    if (!walk_skip(&c, n)) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}


bool facts_is_numpy_float64(const facts *self, TSNode node) {
  buf q = {0};
  bool r = false;
  for (int guard = 0; guard < 6 && !ts_node_is_null(node); guard++) {
    if (NODE_IS(node, "identifier")) {
      if (facts_unpacked_float64(self, node)) {
        r = true;
        break;
      }
      node = last_value(self, node);
      continue;
    }
    if (NODE_IS(node, "subscript")) {
      node = FIELD(node, value); /* a slice keeps the dtype */
      continue;
    }
    if (!NODE_IS(node, "call")) break;
    TSNode fn = FIELD(node, function);
    TSNode args = FIELD(node, arguments);
    if (facts_float64_call(self, node)) {
      r = true;
      break;
    }
    if (!facts_qualname(self, fn, &q)) break;
    const char *s = buf_str(&q);
    static const char *const random[] = {"rand", "randn", "random", "uniform", "normal", "random_sample",
                                         "standard_normal", NULL};
    static const char *const fills[] = {"zeros", "ones", "empty", "full", "linspace", "eye", "identity",
                                        "loadtxt", "genfromtxt", NULL};
    if (!strncmp(s, "numpy.random.", 13)) {
      for (size_t i = 0; random[i]; i++)
        if (!strcmp(s + 13, random[i])) r = true;
    } else if (!strncmp(s, "numpy.", 6) && !has_keyword(self, args, "dtype")) {
      for (size_t i = 0; fills[i]; i++)
        if (!strcmp(s + 6, fills[i])) r = true;
      if ((!strcmp(s + 6, "array") || !strcmp(s + 6, "asarray")) && !ts_node_is_null(args) &&
          ts_node_named_child_count(args) && has_float_literal(ts_node_named_child(args, 0)))
        r = true;
    }
    break;
  }
  buf_free(&q);
  return r;
}


bool facts_cast_after(const facts *self, TSNode node) {
  TSNode parent = ts_node_parent(node);
  /* `Variable(x, requires_grad=False).float()`: the old wrapper keeps the
   * dtype, so the cast after it converts X */
  TSNode wrapper = ts_node_is_null(parent) || !NODE_IS(parent, "argument_list") ? NULL_NODE : ts_node_parent(parent);
  if (!ts_node_is_null(wrapper) && NODE_IS(wrapper, "call") && ts_node_named_child_count(parent) &&
      ts_node_eq(ts_node_named_child(parent, 0), node)) {
    buf q = {0};
    bool variable = facts_qualname(self, FIELD(wrapper, function), &q) && !strcmp(buf_str(&q), "torch.autograd.Variable");
    buf_free(&q);
    if (variable) parent = ts_node_parent(wrapper);
  }
  if (ts_node_is_null(parent) || !NODE_IS(parent, "attribute")) return false;
  TSNode attr = FIELD(parent, attribute);
  TSNode call = ts_node_parent(parent);
  if (ts_node_is_null(attr) || ts_node_is_null(call) || !NODE_IS(call, "call")) return false;
  static const char *const casts[] = {"float", "half", "bfloat16", "astype", "type", NULL};
  for (size_t i = 0; casts[i]; i++)
    if (facts_node_is(self, attr, casts[i])) return true;
  if (facts_node_is(self, attr, "to")) {
    uint32_t len;
    const char *t = facts_text(self, FIELD(call, arguments), &len);
    for (uint32_t k = 0; k + 5 <= len; k++)
      if (!strncmp(t + k, "float", 5) || !strncmp(t + k, "dtype", 5) || !strncmp(t + k, "half", 4)) return true;
  }
  return false;
}


/* Whether function FN binds NAME (LEN bytes) itself: a parameter, an
 * assignment, a loop target. Then its NAME is its own, not the module's. */
static bool binds_locally(const facts *f, int fn, const char *name, uint32_t len) {
  size_t first, end;
  facts_bindings_named(f, name, len, &first, &end);
  const facts_function *g = &f->functions.items[fn];
  for (size_t i = first; i < end; i++) {
    uint32_t pos = f->bindings.items[i].pos;
    /* its parameters lie before its body */
    if (pos >= g->whole.start && pos < g->body.start) return true;
    if (facts_function_at(f, pos) == fn) return true;
  }
  return false;
}


/* Whether NAME (LEN bytes) is subscripted in a per-iteration loop of
 * function FN (-1: module level). */
static bool sliced_in(const facts *f, const char *name, uint32_t len, int fn) {
  for (size_t i = 0; i < f->subscripts.len; i++) {
    const facts_ref *r = &f->subscripts.items[i];
    if (r->len == len && !memcmp(r->name, name, len) && facts_function_at(f, r->pos) == fn &&
        facts_iteration_loop_at(f, r->pos) >= 0)
      return true;
  }
  return false;
}


/* Whether the value E names NAME (LEN bytes): the name itself, or a branch
 * of a conditional (`xtr if split == "train" else xte`). */
static bool names_value(const facts *f, TSNode e, const char *name, uint32_t len) {
  if (NODE_IS(e, "identifier")) return facts_text_is(f, e, name, len);
  if (!NODE_IS(e, "conditional_expression") || ts_node_named_child_count(e) != 3) return false;
  TSNode a = ts_node_named_child(e, 0), b = ts_node_named_child(e, 2);
  return (NODE_IS(a, "identifier") && facts_text_is(f, a, name, len)) || (NODE_IS(b, "identifier") && facts_text_is(f, b, name, len));
}


bool facts_sliced_in_loop(const facts *self, TSNode node) {
  if (!NODE_IS(node, "identifier")) return false;
  uint32_t len;
  const char *name = facts_text(self, node, &len);
  int fn = facts_function_at(self, ts_node_start_byte(node));
  if (sliced_in(self, name, len, fn)) return true;
  if (fn >= 0) return false;
  /* A module-level name is read by the functions that do not bind it
   * themselves: sliced in one's batch loop as such, or through a local alias
   * (`x = xtr if split == "train" else xte`, then `x[i:i + bs]`). */
  for (size_t i = 0; i < self->subscripts.len; i++) {
    const facts_ref *r = &self->subscripts.items[i];
    if (r->len != len || memcmp(r->name, name, len) || facts_iteration_loop_at(self, r->pos) < 0) continue;
    int g = facts_function_at(self, r->pos);
    if (g >= 0 && !binds_locally(self, g, name, len)) return true;
  }
  for (size_t i = 0; i < self->assigns.len; i++) {
    TSNode left = self->assigns.items[i].left;
    if (!NODE_IS(left, "identifier") || !names_value(self, self->assigns.items[i].right, name, len)) continue;
    int g = facts_function_at(self, ts_node_start_byte(left));
    if (g < 0 || binds_locally(self, g, name, len)) continue;
    uint32_t alen;
    const char *alias = facts_text(self, left, &alen);
    if (sliced_in(self, alias, alen, g)) return true;
  }
  return false;
}




/* Whether the attribute name S (LEN bytes) reads as the samples of a
 * dataset: one of its `_`-separated words is `data`, `images`, `frames`,
 * `masks`, `rays`... (`self.all_images`, `self.fg_masks`), not `poses`,
 * `times` or `error_map`, which hold a few numbers per sample. */
static bool names_samples(const char *s, uint32_t len) {
  static const char *const words[] = {"data", "dataset", "images", "imgs", "frames", "videos", "masks", "rgbs",
                                      "rays", "pixels", "samples", "tokens", "features", "inputs", "corpus", NULL};
  uint32_t start = 0;
  for (uint32_t i = 0; i <= len; i++) {
    if (i < len && s[i] != '_') continue;
    if (i > start && lower_matches_any(s + start, i - start, words)) return true;
    start = i + 1;
  }
  return false;
}


/* The target CALL's value is bound to: `t = CALL`, or element-wise `a, t =
 * x, CALL` (or `= (x, CALL)`); null when it is bound to none. */
static TSNode bound_target(TSNode call) {
  TSNode p = ts_node_parent(call);
  if (ts_node_is_null(p)) return NULL_NODE;
  if (NODE_IS(p, "assignment")) return ts_node_eq(FIELD(p, right), call) ? FIELD(p, left) : NULL_NODE;
  if (!NODE_IS(p, "expression_list") && !NODE_IS(p, "tuple")) return NULL_NODE;
  TSNode assign = ts_node_parent(p);
  if (ts_node_is_null(assign) || !NODE_IS(assign, "assignment") || !ts_node_eq(FIELD(assign, right), p)) return NULL_NODE;
  TSNode left = FIELD(assign, left);
  if (ts_node_is_null(left) || !NODE_IS(left, "pattern_list")) return NULL_NODE;
  TSNode targets[FACTS_MAX_ELEMS], values[FACTS_MAX_ELEMS];
  uint32_t n = elements(p, values, FACTS_MAX_ELEMS);
  if (n > FACTS_MAX_ELEMS || n != elements(left, targets, FACTS_MAX_ELEMS)) return NULL_NODE;
  for (uint32_t i = 0; i < n; i++)
    if (ts_node_eq(values[i], call)) return targets[i];
  return NULL_NODE;
}


/* Whether class K of the file holds a dataset's samples: it derives torch's
 * Dataset, or a Dataset of this file derives from it (`class
 * BlenderDataset(Dataset, BlenderBase)`, the data loaded by the base); or it
 * indexes TARGET (`self.data[i:j]`, LEN bytes of text) in its own methods
 * and reads as a dataset or an iterator over one (it defines `__getitem__`,
 * `__iter__` or `__next__`, or its name says Dataset, DataModule, Iterator
 * or Loader). */
static bool data_class(const facts *f, int k, const char *target, uint32_t len) {
  const facts_class *c = &f->classes.items[k];
  if (c->is_dataset) return true;
  for (size_t i = 0; i < f->classes.len; i++) {
    const facts_class *d = &f->classes.items[i];
    if (!d->is_dataset || ts_node_is_null(d->bases)) continue;
    uint32_t n = ts_node_named_child_count(d->bases);
    for (uint32_t j = 0; j < n; j++) {
      TSNode b = ts_node_named_child(d->bases, j);
      if (NODE_IS(b, "identifier") && facts_text_is(f, b, c->name, c->name_len)) return true;
    }
  }
  bool indexed = false;
  const char *p = f->source + ts_node_start_byte(c->node), *end = f->source + ts_node_end_byte(c->node);
  while (!indexed && p && p + len < end) {
    p = memchr(p, target[0], (size_t)(end - p));
    if (!p || p + len >= end) break;
    if (!memcmp(p, target, len) && p[len] == '[') indexed = true;
    p++;
  }
  if (!indexed) return false;
  if (facts_text_has_ci(c->name, c->name_len, "dataset") || facts_text_has_ci(c->name, c->name_len, "datamodule") ||
      facts_text_has_ci(c->name, c->name_len, "iterator") || facts_text_has_ci(c->name, c->name_len, "loader"))
    return true;
  static const char *const protocol[] = {"__getitem__", "__iter__", "__next__", NULL};
  for (size_t i = 0; i < f->functions.len; i++) {
    const facts_function *g = &f->functions.items[i];
    if (g->klass != k) continue;
    for (size_t j = 0; protocol[j]; j++)
      if (g->name_len == strlen(protocol[j]) && !memcmp(g->name, protocol[j], g->name_len)) return true;
  }
  return false;
}


/* Whether the expression NODE makes up a tensor: through method chains and
 * slices, `torch.randint`/`rand`/`randn`/`zeros`/`ones`/`arange`... */
static bool made_up(const facts *f, TSNode node) {
  buf q = {0};
  bool r = false;
  for (int guard = 0; guard < 16 && !ts_node_is_null(node); guard++) {
    if (NODE_IS(node, "subscript")) {
      node = FIELD(node, value);
      continue;
    }
    if (!NODE_IS(node, "call")) break;
    TSNode fn = FIELD(node, function);
    if (!facts_qualname(f, fn, &q)) {
      if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) break;
      node = FIELD(fn, object);
      continue;
    }
    static const char *const names[] = {"rand", "randn", "randint", "randperm", "zeros", "ones", "empty", "full",
                                        "arange", "linspace", "rand_like", "randn_like", "randint_like",
                                        "zeros_like", "ones_like", "empty_like", "full_like", NULL};
    const char *s = buf_str(&q);
    if (!strncmp(s, "torch.", 6))
      for (size_t i = 0; names[i]; i++)
        if (!strcmp(s + 6, names[i])) r = true;
    break;
  }
  buf_free(&q);
  return r;
}


/* Whether the attribute TARGET (`self.data`) holds made-up data wherever
 * class node KLASS assigns it, other than by the move at POS: a smoke
 * test's `self.data = torch.randint(...)`, not a dataset. Tuple
 * assignments count element-wise. */
static bool made_up_attribute(const facts *f, TSNode target, TSNode klass, uint32_t pos) {
  uint32_t len;
  const char *t = facts_text(f, target, &len);
  TSTreeCursor cur = ts_tree_cursor_new(klass);
  int seen = 0;
  bool all = true;
  for (int guard = 0; guard < 200000 && all; guard++) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (NODE_IS(n, "assignment") && !contains_pos(n, pos)) {
      TSNode left = FIELD(n, left), right = FIELD(n, right);
      TSNode targets[FACTS_MAX_ELEMS], values[FACTS_MAX_ELEMS];
      uint32_t k = 0;
      if (!ts_node_is_null(left) && !ts_node_is_null(right) && NODE_IS(left, "pattern_list")) {
        k = elements(left, targets, FACTS_MAX_ELEMS);
        if (k > FACTS_MAX_ELEMS || k != elements(right, values, FACTS_MAX_ELEMS)) k = 0;
      } else if (!ts_node_is_null(left) && !ts_node_is_null(right)) {
        targets[0] = left;
        values[0] = right;
        k = 1;
      }
      for (uint32_t i = 0; i < k; i++) {
        if (!facts_text_is(f, targets[i], t, len)) continue;
        seen++;
        if (!made_up(f, values[i])) all = false;
      }
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    if (!walk_skip(&cur, klass)) break;
  }
  ts_tree_cursor_delete(&cur);
  return seen > 0 && all;
}


bool facts_dataset_attribute(const facts *self, TSNode call) {
  TSNode target = bound_target(call);
  if (ts_node_is_null(target) || !NODE_IS(target, "attribute")) return false;
  TSNode obj = FIELD(target, object), attr = FIELD(target, attribute);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || !facts_node_is(self, obj, "self")) return false;
  uint32_t alen, tlen;
  const char *a = facts_text(self, attr, &alen);
  if (!names_samples(a, alen)) return false;
  int fn = facts_function_at(self, ts_node_start_byte(call));
  if (fn < 0 || self->functions.items[fn].klass < 0) return false;
  const char *t = facts_text(self, target, &tlen);
  int k = self->functions.items[fn].klass;
  TSNode moved = FIELD(call, function);
  if (ts_node_is_null(moved) || !NODE_IS(moved, "attribute") || made_up(self, FIELD(moved, object))) return false;
  if (tlen == 0 || !data_class(self, k, t, tlen)) return false;
  return !made_up_attribute(self, target, self->classes.items[k].node, ts_node_start_byte(call));
}


/* Whether NODE is a tensor made from data, not a model or a constant:
 * `torch.from_numpy(x)`, `torch.tensor(frame)`, `torch.load(path)`, a
 * decoded image, a stack of samples, a dataset (facts_is_dataset), through
 * method chains (`.permute(0, 3, 1, 2).float()`) and slices. */
static bool made_from_data(const facts *f, TSNode node) {
  buf q = {0};
  bool r = false;
  for (int guard = 0; guard < 12 && !ts_node_is_null(node) && !r; guard++) {
    if (facts_is_dataset(f, node)) {
      r = true;
      break;
    }
    if (NODE_IS(node, "subscript")) {
      node = FIELD(node, value);
      continue;
    }
    if (NODE_IS(node, "identifier")) {
      node = last_value(f, node);
      continue;
    }
    if (!NODE_IS(node, "call")) break;
    TSNode fn = FIELD(node, function), args = FIELD(node, arguments);
    if (!facts_qualname(f, fn, &q)) {
      if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute")) break;
      node = FIELD(fn, object); /* `x.permute(...)`, `x.float()` */
      continue;
    }
    static const char *const loaders[] = {"torch.from_numpy", "torch.as_tensor", "torch.load", "torch.stack",
                                          "torch.cat", "torchvision.transforms.functional.to_tensor",
                                          "torchvision.io.read_image", NULL};
    static const char *const constructors[] = {"torch.tensor", "torch.Tensor", "torch.FloatTensor", NULL};
    const char *s = buf_str(&q);
    for (size_t i = 0; loaders[i]; i++)
      if (!strcmp(s, loaders[i])) r = true;
    for (size_t i = 0; constructors[i] && !r; i++) {
      if (strcmp(s, constructors[i])) continue;
      /* `torch.tensor([0.5, 0.5])`: a constant written out, not data */
      TSNode first = ts_node_is_null(args) || !ts_node_named_child_count(args) ? NULL_NODE : ts_node_named_child(args, 0);
      r = !ts_node_is_null(first) && !NODE_IS(first, "list") && !NODE_IS(first, "tuple") &&
          !NODE_IS(first, "integer") && !NODE_IS(first, "float");
    }
    break;
  }
  buf_free(&q);
  return r;
}


/* Whether E is VALUE (the node itself, or an identifier with its text), or
 * a list or tuple literal holding it (`[net_in, net_gt]`). */
static bool holds_value(const facts *f, TSNode e, TSNode value) {
  if (ts_node_is_null(e)) return false;
  if (NODE_IS(e, "list") || NODE_IS(e, "tuple") || NODE_IS(e, "expression_list")) {
    uint32_t n = ts_node_named_child_count(e);
    for (uint32_t i = 0; i < n; i++)
      if (holds_value(f, ts_node_named_child(e, i), value)) return true;
    return false;
  }
  if (ts_node_eq(e, value)) return true;
  uint32_t len;
  const char *t = facts_text(f, value, &len);
  return NODE_IS(value, "identifier") && NODE_IS(e, "identifier") && facts_text_is(f, e, t, len);
}


/* The container the statement node N stores VALUE in: `c.append(v)`,
 * `c[k] = v`, `c[k] = [v, w]`; null otherwise. */
static TSNode store_target(const facts *f, TSNode n, TSNode value) {
  if (NODE_IS(n, "assignment")) {
    TSNode left = FIELD(n, left);
    if (ts_node_is_null(left) || !NODE_IS(left, "subscript") || !holds_value(f, FIELD(n, right), value))
      return NULL_NODE;
    TSNode c = FIELD(left, value);
    return !ts_node_is_null(c) && NODE_IS(c, "identifier") ? c : NULL_NODE;
  }
  if (!NODE_IS(n, "call")) return NULL_NODE;
  TSNode fn = FIELD(n, function), args = FIELD(n, arguments);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || !facts_node_is(f, FIELD(fn, attribute), "append") ||
      ts_node_is_null(args) || ts_node_named_child_count(args) != 1 || !holds_value(f, ts_node_named_child(args, 0), value))
    return NULL_NODE;
  TSNode c = FIELD(fn, object);
  return !ts_node_is_null(c) && NODE_IS(c, "identifier") ? c : NULL_NODE;
}


/* Whether C (a name) was made an empty container before LOOP in its
 * function: `c = []`, `c = [None] * n`, `c = {}`, `c = list()`. */
static bool empty_container_before(const facts *f, TSNode c, int loop) {
  uint32_t len;
  const char *name = facts_text(f, c, &len);
  const facts_loop *l = &f->loops.items[loop];
  long a = facts__last_assign_before(f, name, len, ts_node_start_byte(l->node), l->function);
  if (a < 0) return false;
  TSNode v = f->assigns.items[a].right;
  if (NODE_IS(v, "binary_operator")) v = FIELD(v, left);
  if (ts_node_is_null(v)) return false;
  if (NODE_IS(v, "list") || NODE_IS(v, "dictionary")) return true;
  if (!NODE_IS(v, "call")) return false;
  TSNode args = FIELD(v, arguments);
  return (facts_node_is(f, FIELD(v, function), "list") || facts_node_is(f, FIELD(v, function), "dict")) &&
         !ts_node_is_null(args) && ts_node_named_child_count(args) == 0;
}


/* Whether the container C, filled in LOOP, is taken item by item by a batch
 * loop of the same function: subscripted in one (`net_in, net_gt =
 * data_in_memory[id]`), or iterated by one (`for x, y in cached:`). */
static bool taken_per_batch(const facts *f, TSNode c, int loop) {
  uint32_t len;
  const char *name = facts_text(f, c, &len);
  int fn = f->loops.items[loop].function;
  if (sliced_in(f, name, len, fn)) return true;
  for (size_t i = 0; i < f->loops.len; i++) {
    const facts_loop *l = &f->loops.items[i];
    if (!l->per_iteration || l->function != fn || !NODE_IS(l->node, "for_statement")) continue;
    TSNode right = FIELD(l->node, right);
    if (!ts_node_is_null(right) && NODE_IS(right, "identifier") && facts_text_is(f, right, name, len)) return true;
  }
  return false;
}


bool facts_kept_per_item(const facts *self, TSNode call) {
  uint32_t pos = ts_node_start_byte(call);
  int loop = facts_innermost_loop_at(self, pos);
  if (loop < 0 || self->loops.items[loop].per_iteration) return false;
  TSNode fn = FIELD(call, function);
  if (ts_node_is_null(fn) || !NODE_IS(fn, "attribute") || !made_from_data(self, FIELD(fn, object))) return false;
  /* the moved value itself, or the name it is assigned to */
  TSNode value = call;
  TSNode target = bound_target(call);
  if (!ts_node_is_null(target) && NODE_IS(target, "identifier")) value = target;
  TSNode body = FIELD(self->loops.items[loop].node, body);
  if (ts_node_is_null(body)) return false;
  /* a walk of the loop's body for the statement that stores the value */
  TSTreeCursor cur = ts_tree_cursor_new(body);
  bool found = false;
  for (int guard = 0; guard < 100000 && !found; guard++) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (ts_node_end_byte(n) > pos) { /* after the move, or around it (`c.append(x.cuda())`) */
      TSNode c = store_target(self, n, value);
      if (!ts_node_is_null(c) && empty_container_before(self, c, loop) && taken_per_batch(self, c, loop)) found = true;
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    if (!walk_skip(&cur, body)) break;
  }
  ts_tree_cursor_delete(&cur);
  return found;
}


bool facts_in_parameter(const facts *self, TSNode node) {
  buf q = {0};
  bool r = false;
  TSNode inner = node;
  /* up through the expression holding NODE (`1e-5 + torch.zeros(...)`),
   * never past its statement */
  for (int guard = 0; guard < 16 && !r; guard++) {
    TSNode up = ts_node_parent(inner);
    if (ts_node_is_null(up) || NODE_IS(up, "expression_statement") || NODE_IS(up, "block") || NODE_IS(up, "module"))
      break;
    if (NODE_IS(up, "argument_list")) {
      TSNode call = ts_node_parent(up);
      if (!ts_node_is_null(call) && NODE_IS(call, "call") && ts_node_named_child_count(up) &&
          ts_node_eq(ts_node_named_child(up, 0), inner) && facts_qualname(self, FIELD(call, function), &q) &&
          (!strcmp(buf_str(&q), "torch.nn.Parameter") || !strcmp(buf_str(&q), "torch.nn.parameter.Parameter"))) {
        /* `nn.Parameter(t, requires_grad=False)`: a constant, never trained */
        r = true;
        uint32_t n = ts_node_named_child_count(up);
        for (uint32_t i = 1; i < n; i++) {
          TSNode a = ts_node_named_child(up, i);
          if (!NODE_IS(a, "keyword_argument") || !facts_node_is(self, FIELD(a, name), "requires_grad")) continue;
          r = !facts_node_is(self, FIELD(a, value), "False");
        }
        if (n > 1 && NODE_IS(ts_node_named_child(up, 1), "false")) r = false; /* `nn.Parameter(t, False)` */
      }
    }
    inner = up;
  }
  buf_free(&q);
  return r;
}
