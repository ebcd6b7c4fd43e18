/* Activations: the interpreter runs forward() of the models the file calls, with tensor
 * shapes and dtypes, and counts what autograd keeps for backward (saved.c's rules),
 * each storage once. Internal to src/estimate: the hooks the interpreter calls. */
#ifndef OOM_ESTIMATE_ACTIVATIONS_H
#define OOM_ESTIMATE_ACTIVATIONS_H

#include "estimate/interp.h"

/** Start recording (estimate_run, before the file runs). */
void act_begin(interp *st);
/** A call of module M: runs its forward() when an input is a known tensor.
 *  Returns the output (or an unknown with the reason). */
value *act_module_call(interp *st, obj *m, args *a);
/** torch.* / F.* ops on tensors, contexts (no_grad, autocast), checkpoint;
 *  NULL when QUAL is not one of them. */
value *act_torch_call(interp *st, const char *qual, args *a);
/** Tensor methods that change shapes or keep tensors; NULL when not one. */
value *act_tensor_method(interp *st, value *self, const char *name, args *a);
/** Binary arithmetic with a tensor operand; NULL when neither is a tensor. */
value *act_binary(interp *st, const char *op, value *l, value *r);
/** Subscripts of a tensor: SUBS are the NS index nodes. NULL when V is not a tensor. */
value *act_subscript(interp *st, scope *sc, value *v, const TSNode *subs, uint32_t ns);
/** The rows of tensor V (`for i in ix`), NULL when too many or not known. */
seq *act_iterate(interp *st, value *v);
/** The `with` statement N run by RUN, under the no_grad / autocast its items
 *  name (a context made by torch.no_grad(), torch.autocast(...), or a name bound
 *  to one). */
flow act_with(interp *st, scope *sc, TSNode n, flow (*run)(interp *, scope *, TSNode));
/** A `with` item's value entered / left (no_grad, autocast). */
int act_with_enter(interp *st, value *ctx);
void act_with_exit(interp *st, int token);
/** A call of function DEF starts: `@torch.no_grad()` and `@torch.inference_mode()`
 *  turn gradients off until act_with_exit(TOKEN). */
int act_enter_function(interp *st, TSNode def);
/** Gradient accumulation steps the file sets at module level
 *  (`gradient_accumulation_steps = 8`), 1 when none. */
int64_t act_accumulation(interp *st);
/** The processes a sharded job runs on when the file sets it at module level
 *  (`world_size = 8`), 1 when not known. */
int64_t act_world_size(interp *st);
/** The activations of root module M into the model's fields. */
void act_fill(interp *st, obj *m, estimate_model *out);
/** module.register_buffer(name, tensor): an attribute that is resident, not kept. */
void act_register_buffer(interp *st, obj *m, args *a);
/** A tensor made by a torch factory with A's requires_grad=True needs a gradient. */
void act_factory(interp *st, value *t, args *a);
/** Keep the constructor's arguments of layer M (kernel sizes, p, dims). */
void act_keep_ctor(interp *st, obj *m, const args *a);

#endif
