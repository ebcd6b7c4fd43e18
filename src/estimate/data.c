/* This file contains the samples of a project's own Dataset classes: a DataLoader over an
 * instance of one runs its `__getitem__` once, symbolically, with an index the estimate does
 * not know, and collates what it returns (tensors, numbers, tuples and dicts of them) into a
 * batch as torch's default_collate does.  The images those methods load are PIL images whose
 * mode a `.convert()` gives and whose size only the data knows (`--assume image_width=N`,
 * `image_height=N`) unless a transform crops or resizes them to a known size. */
#include <assert.h>
#include <string.h>

#include "estimate/interp.h"




#define PIL_IMAGE "PIL.Image.Image"

/* The bands of PIL mode M: 0 when the mode is not one oomlint knows. */
static int64_t mode_bands(const value *m) {
  static const struct { const char *mode; int64_t bands; } modes[] = {
    {"1", 1}, {"L", 1}, {"P", 1}, {"I", 1}, {"F", 1}, {"I;16", 1}, {"LA", 2}, {"PA", 2}, {"La", 2},
    {"RGB", 3}, {"YCbCr", 3}, {"LAB", 3}, {"HSV", 3}, {"RGBA", 4}, {"RGBa", 4}, {"CMYK", 4}, {"RGBX", 4}};
  if (!m || m->kind != V_STR) return 0;
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
    if (strlen(modes[i].mode) == m->u.s.n && !memcmp(modes[i].mode, m->u.s.s, m->u.s.n)) return modes[i].bands;
  return 0;
}


bool data_is_image(const value *v) {
  return v->kind == V_OBJECT && v->u.obj->kind == OBJ_EXTERN && v->u.obj->qual && !strcmp(v->u.obj->qual, PIL_IMAGE);
}


/* A PIL image of MODE and size W x H (each a value: an int, or unknown with its reason). */
static value *image_new(interp *st, value *mode, value *w, value *h, TSNode site) {
  obj *o = obj_new(st, OBJ_EXTERN, "PIL image");
  o->qual = PIL_IMAGE;
  o->site = site;
  value *size = v_list(st, V_TUPLE);
  avec_push(st->a, &size->u.seq->items, w);
  avec_push(st->a, &size->u.seq->items, h);
  dict_set_str(st, o->attrs, "mode", mode);
  dict_set_str(st, o->attrs, "size", size);
  dict_set_str(st, o->attrs, "width", w);
  dict_set_str(st, o->attrs, "height", h);
  return v_obj(st, o);
}


static value *image_attr(const value *img, const char *name) {
  value *v = dict_get_str(img->u.obj->attrs, name, strlen(name));
  assert(v); /* image_new sets every attribute read here */
  return v;
}


/* An image file's size is the data's: --assume image_width / image_height give it. */
static value *file_side(interp *st, const char *name, TSNode site) {
  value *v = script_assumed(st, name, (uint32_t)strlen(name));
  if (v) return v;
  return v_unknown(st, "the size of the image file opened at %s is the data's; give it with --assume %s=N",
                   st_at(st, site), name);
}


/* PIL.Image.open and friends; NULL when QUAL is none of them. */
value *data_call(interp *st, const char *qual, args *a) {
  if (!strcmp(qual, "PIL.Image.open")) {
    value *mode = v_unknown(st, "the mode of an image file (%s) is the data's", st_at(st, a->node));
    return image_new(st, mode, file_side(st, "image_width", a->node), file_side(st, "image_height", a->node), a->node);
  }
  if (!strcmp(qual, "torch.utils.data.random_split") || !strcmp(qual, "torch.utils.data.dataset.random_split")) {
    /* each part is a Subset: its samples are the dataset's */
    value *ds = arg_get(a, 0, "dataset");
    value *lens = arg_get(a, 1, "lengths");
    seq *parts = lens ? v_iterate(st, lens) : NULL;
    if (!ds || !parts) return v_unknown(st, "random_split() into parts not known");
    value *r = v_list(st, V_LIST);
    for (uint32_t i = 0; i < parts->items.len; i++) avec_push(st->a, &r->u.seq->items, ds);
    return r;
  }
  if (!strcmp(qual, "torch.utils.data.Subset") || !strcmp(qual, "torch.utils.data.dataset.Subset")) {
    value *ds = arg_get(a, 0, "dataset");
    return ds ? ds : v_unknown(st, "a Subset of no dataset");
  }
  return NULL;
}


/* Methods of a PIL image; NULL when SELF is not one. */
value *data_image_method(interp *st, value *self, const char *name, args *a) {
  if (!data_is_image(self)) return NULL;
  value *mode = image_attr(self, "mode"), *w = image_attr(self, "width"), *h = image_attr(self, "height");
  if (!strcmp(name, "copy") || !strcmp(name, "filter") || !strcmp(name, "transpose") || !strcmp(name, "load"))
    return !strcmp(name, "load") ? st->none : image_new(st, mode, w, h, a->node);
  if (!strcmp(name, "convert")) {
    value *m = arg_get(a, 0, "mode");
    return image_new(st, m && m->kind == V_STR ? m : v_unknown(st, "an image converted to a mode not known"), w, h, a->node);
  }
  if (!strcmp(name, "split")) {
    /* one single-band image per band of the mode */
    int64_t bands = mode_bands(mode);
    if (!bands) return mode->kind == V_UNKNOWN ? mode : v_unknown(st, "the bands of an image of a mode not known");
    value *t = v_list(st, V_TUPLE);
    for (int64_t i = 0; i < bands; i++) avec_push(st->a, &t->u.seq->items, image_new(st, v_str(st, "L", 1), w, h, a->node));
    return t;
  }
  if (!strcmp(name, "resize")) {
    value *size = arg_get(a, 0, "size");
    seq *s = size ? v_iterate(st, size) : NULL;
    if (!s || s->items.len != 2) return image_new(st, mode, v_unknown(st, "an image resized to a size not known"),
                                                  v_unknown(st, "an image resized to a size not known"), a->node);
    return image_new(st, mode, s->items.items[0], s->items.items[1], a->node);
  }
  if (!strcmp(name, "getbands")) {
    int64_t bands = mode_bands(mode);
    if (!bands) return v_unknown(st, "the bands of an image of a mode not known");
    value *t = v_list(st, V_TUPLE);
    for (int64_t i = 0; i < bands; i++) avec_push(st->a, &t->u.seq->items, v_str(st, "?", 1));
    return t;
  }
  return v_unknown(st, "`.%s()` of a PIL image", name);
}


/* The image's channels, height and width for a transform (-1 where not known). */
void data_image_dims(const value *img, int64_t *c, int64_t *h, int64_t *w) {
  assert(data_is_image(img));
  int64_t b = mode_bands(image_attr(img, "mode"));
  *c = b ? b : -1;
  if (!v_as_int(image_attr(img, "height"), h)) *h = -1;
  if (!v_as_int(image_attr(img, "width"), w)) *w = -1;
}


/* The image a transform left an image as: C bands (1: mode L, 3: RGB) of H x W. */
value *data_image_of(interp *st, const value *img, int64_t c, int64_t h, int64_t w, TSNode site) {
  value *mode = c == 1 ? v_str(st, "L", 1) : c == 3 ? v_str(st, "RGB", 3) : image_attr(img, "mode");
  value *wv = w >= 0 ? v_int(st, w) : v_unknown(st, "an image's width: a transform left it unknown");
  value *hv = h >= 0 ? v_int(st, h) : v_unknown(st, "an image's height: a transform left it unknown");
  if (w < 0 && image_attr(img, "width")->kind == V_UNKNOWN) wv = image_attr(img, "width");
  if (h < 0 && image_attr(img, "height")->kind == V_UNKNOWN) hv = image_attr(img, "height");
  return image_new(st, mode, wv, hv, site);
}


/* ---- a project dataset's sample ---- */

/* The sample `dataset[i]` gives, for an instance of a class of the project with a
 * `__getitem__`; NULL when DS is not one (a library dataset knows its own samples). */
value *data_sample(interp *st, value *ds, TSNode site) {
  if (ds->kind != V_OBJECT || !ds->u.obj->klass || ds->u.obj->kind == OBJ_MODULE) return NULL;
  klass *found = NULL;
  value *fn = class_attr(st, ds->u.obj->klass, "__getitem__", 11, &found);
  if (!fn || fn->kind != V_FUNCTION) return NULL;
  value *bound = get_attr(st, ds, "__getitem__", 11);
  args a;
  memset(&a, 0, sizeof a);
  a.node = site;
  /* any index: code that branches on it (`index % 2`) follows both ways */
  avec_push(st->a, &a.pos, v_unknown(st, "the index of a sample"));
  st->in_getitem++;
  value *r = call_value(st, bound, &a);
  st->in_getitem--;
  return r;
}


/* what default_collate makes of B samples like V (DEPTH: nesting) */
static value *collate(interp *st, value *v, int64_t b, TSNode dim0, const char *where, int depth) {
  if (depth > 8) return v_unknown(st, "a batch of samples nested too deeply to follow");
  shape *sh;
  switch (v->kind) {
  case V_TENSOR:
  case V_PARAM: {
    const shape *s = v->kind == V_TENSOR ? v->u.tensor : &v->u.param->sh;
    if (s->ndim < 0 || s->ndim + 1 > EST_MAX_DIMS) return v_unknown(st, "a batch of samples of a shape not known (%s)", where);
    sh = shape_new(st, s->ndim + 1);
    sh->bits = s->bits;
    sh->dims[0] = b;
    for (int k = 0; k < s->ndim; k++) sh->dims[k + 1] = s->dims[k];
    break;
  }
  /* numbers become a tensor of the batch: int64, float64, bool */
  case V_INT:
  case V_FLOAT:
  case V_BOOL:
    sh = shape_new(st, 1);
    sh->dims[0] = b;
    sh->bits = v->kind == V_BOOL ? 8 : 64;
    break;
  case V_LIST:
  case V_TUPLE: {
    value *t = v_list(st, v->kind);
    for (uint32_t i = 0; i < v->u.seq->items.len; i++)
      avec_push(st->a, &t->u.seq->items, collate(st, v->u.seq->items.items[i], b, dim0, where, depth + 1));
    return t;
  }
  case V_DICT: {
    value *d = v_dict(st);
    for (uint32_t i = 0; i < v->u.dict->keys.len; i++)
      dict_set(st, d->u.dict, v->u.dict->keys.items[i], collate(st, v->u.dict->vals.items[i], b, dim0, where, depth + 1));
    return d;
  }
  case V_STR: return v_list(st, V_LIST); /* strings stay a list of strings */
  case V_UNKNOWN:
    if (v->why) return v_unknown(st, "a batch of samples of `__getitem__` (%s) not known: %s", where, v->why);
    return v_unknown(st, "a batch of samples of `__getitem__` (%s) not known", where);
  default: return v_unknown(st, "a batch of samples that are a %s (%s)", v_kind_name(v), where);
  }
  value *t = v_new(st, V_TENSOR);
  t->u.tensor = sh;
  t->dim0 = dim0;
  return t;
}


value *data_collate(interp *st, value *sample, value *batch_size, TSNode getitem) {
  int64_t b;
  if (!v_as_int(batch_size, &b)) return v_unknown(st, "a batch of unknown size");
  const char *where = ts_node_is_null(getitem) ? "the dataset" : st_at(st, getitem);
  return collate(st, sample, b, batch_size->origin, where, 0);
}


/* the bytes of a batch whose every tensor is known; -1 otherwise */
int64_t data_bytes(const value *v, int depth) {
  if (depth > 8) return -1;
  if (v->kind == V_TENSOR) {
    const shape *s = v->u.tensor;
    if (s->ndim < 0 || s->bits == EST_BITS_UNKNOWN) return -1;
    int64_t n = 1;
    for (int k = 0; k < s->ndim; k++) {
      if (s->dims[k] < 0) return -1;
      n *= s->dims[k];
    }
    return (n * s->bits + 7) / 8;
  }
  if (v->kind == V_LIST || v->kind == V_TUPLE || v->kind == V_DICT) {
    const value *const *items = v->kind == V_DICT ? (const value *const *)v->u.dict->vals.items
                                                  : (const value *const *)v->u.seq->items.items;
    uint32_t n = v->kind == V_DICT ? v->u.dict->vals.len : v->u.seq->items.len;
    int64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
      int64_t x = data_bytes(items[i], depth + 1);
      if (x < 0) return -1;
      total += x;
    }
    return total;
  }
  return -1;
}
