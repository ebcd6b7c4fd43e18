; code: OOM201
; name: eval-without-no-grad
; severity: warning
; message: `{fn}(...)` runs with autograd on where no backward pass follows: its activations are saved for nothing; run it under `torch.no_grad()` or `torch.inference_mode()`
; fix: unsafe: Run evaluation under `torch.no_grad()` (decorate the function with `@torch.no_grad()`)
; edit: add-decorator @evalcall @torch.no_grad()
; doc:
;   ## What it does
;   Finds calls of a model (a name bound to an `nn.Module`: built from a
;   module class of the file or of the project, a `torch.nn` layer, a
;   torchvision, timm or transformers factory, `from_pretrained`, or
;   `self.<module attribute>`; or known by its use: its `.parameters()`
;   handed on, `.eval()`, `.train()`, `.state_dict()` called on it, wrapped
;   by DDP, `torch.compile` or `accelerator.prepare`; not a function
;   compiled, one the file defines or imports, `fn = transform_points;
;   torch.compile(fn)`, a pick from a module-level table of functions and
;   lambdas, `torch.compile(CUSTOM_CREATORS[name])`, the target of a loop
;   over a tuple of the file's functions, `for variant in (all_at_once,
;   packed_bits): fn = torch.compile(variant)`, nor a lambda), or of a forward-like
;   method or submodule of one (`net.forward(x)`, `model.predict(x)`,
;   `module.validation_step(batch)`, `self.model.encoder(x)`), or of a
;   method of the same class that returns a call of one model attribute on
;   every return (`def infer(self, x): return self.module_(x)`: then
;   `self.infer(x)` is `self.module_`'s forward pass, and an `.eval()` of
;   `self.module_` applies to it), that run with gradient tracking on
;   although nothing will be backpropagated through them. A method of the
;   model's class whose body never reads `self` (`extract_prosodic_features
;   (self, audio, sr)` computing features with librosa and NumPy) runs none
;   of its modules, whatever its name says. A loss (`criterion(out, y)`, a `torch.nn` loss, a cost function handed in as `cost`) is not a model (an actor-critic's `critic` is one):
;   the forward pass before it is what is reported. Nor is what the batch
;   goes through on its way to the model (`next(iter(loader))`, a
;   `pre_process(x)` whose output the model takes), nor a tokenizer, even
;   one a library or the project builds as a module, nor a scikit-learn,
;   XGBoost or LightGBM estimator held in an attribute that another class
;   of the file uses for a torch module (`self._model.predict_proba(x)`),
;   nor what a function of the file returns when it binds it to an instance
;   of a plain class of the project (`model = RandomForestForecaster();
;   model.load(path); return model`, whatever else the file calls `model`),
;   nor a call that takes only models (`reg_fn(model)`, a regularizer over
;   the parameters: it computes something about the model, not a forward
;   pass of data), nor an Ultralytics predictor (`model = YOLO("yolov8n.pt")`, also when
;   a method of the file returns it: its call runs predict under inference
;   mode and returns Results). One diagnostic per
;   call, in four places:
;
;   - an evaluation function (named `evaluate`, `validate`, `test`,
;     `predict`, `inference`, ... or ending in `_eval`, `_validation`,
;     `_test`, or, for the calls of one model, the code after that
;     model's `.eval()` in the same scope, `model = Net().eval()` included,
;     and up to a binding of the name to a value that does not read it
;     (`model = pickle.load(f)`, an XGBoost model loaded under the name
;     another branch put in eval mode; `model = DDP(model)` is the same
;     module),
;     up to a binding of the name to a new instance (`model =
;     SimpleNet(...)` starts in training mode); not a call in the
;     branch where the `.eval()`'s flag is false (`if is_eval:
;     self.model.eval()`, then `if not is_eval: out =
;     self.model.decode(z)`, the training path), nor, after an `.eval()`
;     under `if is_test:` (a parameter named for evaluation, or `if not
;     training:`), a call whose function returns a value: a helper the
;     training step shares with the test, whose caller picks the mode,
;     or any method of a plain class whose `__init__` puts `self.model` in
;     eval mode and no method back in training mode: a distillation step
;     that puts its teacher in eval mode still trains its student) that
;     never calls `.backward()`, directly or through a function of the
;     file it calls, and that no `forward`, `__call__` or loss function of
;     the file calls (a plain class's `forward` computing its loss from
;     `self.predict_neg_score(...)`);
;   - a loop that runs once per batch after `model.eval()`, when that loop
;     does no training (for example the validation loop of a `fit` function;
;     a backward in a loop nested in it, such as the per-sample
;     `ll.backward()` of a Fisher information, is training);
;   - after `model.eval()` in a function or script that trains, a call of
;     that model that no backward pass follows (the validation forward
;     after `loss.backward(); optimizer.step()`, the test of a script
;     after its training loop, a `no_grad` block that holds only the
;     copies of the batch, `Variable(x, volatile=True)`, which has done
;     nothing since PyTorch 0.4);
;   - a loop that runs once per batch in a file that never calls
;     `.backward()` (a pure inference script), nor zeroes or steps an
;     optimizer or hands one to a call (the backward pass of such a file
;     may happen in another module, as in MAE's
;     `loss_scaler(loss, optimizer)`), nor calls a function of the
;     project that does, or an instance of a project class whose
;     `forward` or `__call__` trains (a meta-learner's `maml(x_spt, y_spt,
;     ...)`, a trainer module that backpropagates inside its `forward`; also
;     a name that any of its bindings in the file makes such an instance,
;     `model = BaseModel(model, opts)` after `model = get_model(opts)`; a
;     parameter handed a loss takes the class the file's assignments of
;     its name agree on, `def train_one_epoch(netgroup, loader)` beside
;     `netgroup = NetGroup(...)`, whose `netgroup.update(losses)`
;     backpropagates), or a
;     method its class inherits from a project base class that does
;     (`self.optimize(self.gen_opt, loss)` of a GAN trainer's base), or a
;     method of an object of unknown class (a parameter) whose every
;     definition in the project runs a backward pass
;     (`net.optimize_step_(loss)` in a loop; for names of eight characters
;     or more holding an underscore and naming a step: `step`, `optim`,
;     `update`, `backward`, `train`, `learn`). An
;     argument named as an optimizer (`opt`, `opt_g`, `gen_adv_opt`) makes
;     a call a training step; nor does such a loop in a method named as a
;     training step (`train_step`, `training_step`, `train_iter`) of a
;     class with a base, whose base class's loop and hooks backpropagate
;     the loss it returns (USB's `ReMixMatch.train_step`). A loop whose body ends in an unconditional
;     `break` runs once and is no batch loop (the one-batch smoke test of a
;     `__main__` block: `for batch in loader: ...; break`). Nor is a loop
;     of a model's own code: a method of a module class, or a function
;     outside classes that only such methods call, directly or through one
;     more such function (a patch wrapper's `forward` handing `self.model`
;     to `process_patch_array`, which runs it over chunks of patches).
;
;   Not reported: calls under `with torch.no_grad()` (also written
;   `with (torch.no_grad()):`, or through a name the function binds to
;   one, `context = torch.no_grad()` on one branch and
;   `torch.enable_grad()` on the other, or in one conditional expression,
;   `torch.enable_grad() if use_grad else torch.no_grad()`: a mode chosen on
;   purpose), in a function of
;   the file whose every call (or handing to a call, such as
;   `partial(helper, ...)` or the bound method `self.pseudo.eval`; a call on
;   another object, `handler.eval_batch(...)`, counts for every method of
;   that name in the file's classes whose parameters its arguments fit;
;   `self.unit_test(batch)` in a base class's method counts for the
;   overrides of its subclasses in the file; calling an instance of a class
;   of the file, `single_scale = MscEval()` then `single_scale(net, dl)`,
;   counts for that class's `__call__`, and so does calling a parameter
;   that every caller hands such an instance, through up to three
;   functions: `oracle = CelebaOracle(...)` then `score(loader, oracle)`
;   whose `oracle(x)` runs under `@torch.no_grad()`, or handing such an
;   instance to a function of another module of the project that calls
;   what it is handed only under no_grad, `avg_model = AverageModel(paths)`
;   then `utils.test(avg_model, loader)`; calling a name picked
;   from a list, tuple or dictionary of the file's functions counts for
;   each of them: `infer_fn = [infer_basic, infer_mirror][tta_level]` then
;   `infer_fn(inputs, model)` under no_grad; a function handed to a
;   function of the file runs where that function calls the parameter
;   receiving it, `evaluate(model_predict)` whose `predict_fn(x)` is under
;   no_grad, for each definition of the name on the branches of an `if`
;   (a lambda as well: `measure_latency(lambda: model(dummy), ...)` whose
;   every `forward_fn()` is under no_grad, or a function or method of
;   another module of the project that calls its parameters only under
;   no_grad, `Evaluater.evaluate(lambda x: self.model(x), loader)`),
;   and so does a closure a function of the file returns, alone or in a
;   tuple, when the name it is bound to is handed on: `predict_fn, ckpt =
;   load_mip_model(path)` then `compute_lipschitz(predict_fn, obs)`, decorated
;   `@torch.no_grad()`, runs `load_mip_model`'s own nested `predict_fn`) runs
;   under no_grad or hands on only frozen
;   models (`get_model_flops(model, dims)` after `for k, v in
;   model.named_parameters(): v.requires_grad = False`; here or in the
;   modules importing it), calls of a model's method
;   that its class or a base class of the project decorates with no-grad
;   or runs under its own no_grad (`detector.predict(imgs)` where
;   `BaseDetector.predict` is `@nograd`; allennlp's
;   `Model.forward_on_instances`, and `forward_on_instance` that only
;   calls it; an allennlp `Predictor`'s `predict_json`,
;   `predict_batch_json`, `predict_instance` and `predict_batch_instance`,
;   which reach it; the model known by the class every assignment of its name
;   builds, or the class annotating the parameter it is bound to:
;   `def __init__(self, model: Model): self._model = model`), in a function or method the
;   file never calls whose every call in the modules importing it (or its
;   package) runs under no_grad (`with torch.no_grad():
;   model.compute_metrics(loader)` in the `train.py` beside or above it; a
;   bound method picked into a name and called through it counts as a call,
;   `evaluate_fn = model.evaluate_one_step if ... else ...` then
;   `evaluate_fn(data)`;
;   oomlint reads the Python files of the file's folder and of each folder
;   above it up to the project root), or that the file calls only from
;   such functions (`predict_score` called only by `forward_test`, which
;   the script runs under no_grad), in a method the file never calls
;   that a base class of another module of the project calls on `self`
;   or hands on as a bound method only under no_grad (a `BaseModel.test()`
;   running `self.forward()`, a base solver's `with torch.no_grad():
;   self.run_stage("evaluate", self.evaluate)`, a base trainer's
;   `eval_epoch` running `self.eval_batch(...)`; the base found also
;   through a package that re-exports it with a star import, `from
;   base_model import trainer` with `from .base_trainer import *` in
;   `base_model/__init__.py`; not
;   an `nn.Module`'s `forward`, which every call of the model runs), of a module whose
;   `forward` or `__call__` runs what it holds only under no_grad (a
;   predictor wrapper, in the file or in another module of the project;
;   preparing the input and converting the result outside the block, or
;   calling methods of its class that run under no_grad themselves or run
;   no model, as a face detector's `forward` calling `self.detect(img)`
;   and `self.extract(img, boxes)`; or whose `forward` chooses its grad
;   mode itself, `with torch.set_grad_enabled(self.as_loss):` or by a flag
;   of its own, `if self._inference_mode: with torch.inference_mode():
;   return ...`, also when a factory of the project returns it,
;   `create_metric(name)`, or it is moved to the device as it is built,
;   `Extractor(inference_mode=True).to(device)`),
;   `torch.inference_mode()` or `torch.set_grad_enabled(False)` (as a
;   statement, also after a call of a function of the file whose own body
;   turns gradients off that way and never back on, a transcription
;   script's `setup(args)`, and in the methods of a class whose
;   `__init__` ends that way, an inference wrapper's, when the file never
;   turns them back on; or, in an
;   evaluation context, `torch.set_grad_enabled(split == 'train')` or
;   `with torch.no_grad() if cond else nullcontext():`: the code chooses
;   the mode itself), in
;   functions decorated with one of them, under a project's own decorator
;   or context whose name contains `no_grad` or `inference_mode` (such as
;   YOLOv5's `@smart_inference_mode()`: oomlint does not read the module
;   that defines it and takes the name at its word) or returned on every
;   return of a function of the file or of the project (`with
;   inference_context(serial):` whose function returns `torch.no_grad()`
;   on one branch and `torch.inference_mode()` on the other), evaluation code that
;   calls `.backward()` or `torch.autograd.grad` (adversarial evaluation,
;   saliency maps; also through a function of another module of the
;   project that calls it, `autograd_gradients(loss, params)` scoring
;   gradient alignment; also through a module imported lazily, `torch, nn =
;   _torch()` where a function of the file imports and returns it), files that adapt or optimize with `higher`'s
;   differentiable optimizers (`higher.innerloop_ctx`, `get_diff_optim`:
;   meta-learning needs autograd at test time) or a scaler that does (`loss_scaler(loss, optimizer)`,
;   timm's `NativeScaler`), files that draw the autograd graph with
;   torchviz (`make_dot(model(x))` reads it), a function handed to a loss that is
;   backpropagated (a Pyro model: `loss_fn(model, guide, x).backward()`)
;   or to one of Captum's attribution methods
;   (`LayerIntegratedGradients(forward_func, layer)`), a call of an
;   instance of a project class whose `forward` computes gradients itself
;   (`torch.autograd.grad`, a Captum `.attribute(...)`: DIG's DeepLIFT or
;   GradCAM explainers), a forward in a
;   lambda handed to a callable of another library, which decides when
;   and under which grad mode it runs (`ptan.agent.PolicyAgent(lambda x:
;   net(x)[0])`; not `map` or `sorted`, which run it there and then),
;   a forward in a lambda handed to a function of the file or the
;   project decorated with no-grad (`audio2video(a2l=lambda x: G(x))`
;   where `@torch.no_grad() def audio2video(a2l, ...)`: the lambda runs
;   there), a forward in a lambda or a function of the file handed to a function
;   of the file or the project that runs a backward pass (a training
;   loop taking a forward closure: `run_training("gcn", lambda:
;   model(x), ...)`, or a nested `def torch_fwd()` handed the same way),
;   a forward in a function of the file only ever handed to the
;   constructor of a class of another module or library, or called only
;   from such functions (U-ViT's guidance closure, `score_model =
;   sde.ScoreModel(cfg_nnet, ...)`: the object runs it later, under the
;   grad mode its callers choose),
;   a call of a parameter that every call of its function in the file
;   binds to a module class (a layer builder's `block(inplanes, planes)`
;   in `_make_layer(inplanes, BasicBlock, planes, n)`: it builds a layer),
;   a model's method given text (`roberta.encode("text")`, a
;   tokenizer; also `[roberta.encode(s) for s in sent]` over a list of
;   cleaned strings or a collection named as text: `sents`, `captions`),
;   calls of a wrapper whose base class runs the model under
;   no_grad (an inferencer without a `forward` of its own), PyTorch Lightning modules (Lightning runs
;   `validation_step`, `test_step` and `predict_step` without gradients
;   itself, and the hooks of its evaluation loops, a Callback's
;   `on_validation_end` or `on_test_epoch_end` among them; a class that derives nothing, or only `object`, is none: its
;   own code calls its `validation_step`, as skorch's NeuralNet does), test modules (that import `pytest`, `unittest` or `hypothesis`,
;   or define a pytest class `Test...`: their `test_*` functions are not
;   evaluation loops), `test_*` functions that assert (an assert statement, or a call
;   such as `torch.testing.assert_close`, `np.testing.assert_allclose`,
;   `self.assertEqual`), in any file (a
;   module checked in eval mode on a toy input), `test_*` functions that
;   take nothing in a file named as a test suite (`test_*.py`,
;   `*_test.py`), which pytest collects without an import (not `def
;   test_epoch(model, loader)`, an evaluation in a script of that name),
;   a forward whose function reads `.grad_fn` (a tracer walking the graph
;   it records) or whose input the function made to require grad
;   (`coords.requires_grad_(True)`: a physics-informed network's residual
;   differentiates the output with respect to it; or an attribute of it,
;   or of the items of a list it is, set to require grad before the call,
;   `graph.atom_frac_coord.requires_grad = "f" in targets`: a potential
;   computing forces as the gradient of its energy), files that do not import
;   torch, calls of a model whose parameters are frozen with
;   `.requires_grad_(False)` (StyleGAN's metric samplers; also where it is
;   built, `G = build().requires_grad_(False)`, and its copies, `G_ema =
;   copy.deepcopy(G)`) or parameter by parameter (`for k, v in
;   model.named_parameters(): v.requires_grad = False`, or to an argument
;   whose default is `False`, as pytorch-fid's `InceptionV3` does, also
;   built and moved at once in another module, `InceptionV3([3]).to(device)`,
;   and handed to the function that runs it; also
;   by a plain helper of the file that freezes the model handed to it and
;   does not thaw it, `with frozen(model):` or `freeze(net)`, or by a helper
;   of the file or of another module of the project that sets
;   `requires_grad` to a flag it is handed, called with `False`
;   (`requires_grad_(model, False)`); a thaw after the function's inference
;   loops (restoring `requires_grad` once they are done) leaves the calls in
;   them frozen, while a freeze and a thaw around one step (a GAN's
;   discriminator) leave the model trainable; for an attribute,
;   `self.avgG`, in any method of its class, also when each binding of the
;   attribute stores a local its method froze before (`netG.requires_grad_(
;   False)`, then `self.pattern_generator = netG`); an instance of a module
;   class that freezes itself in its `__init__`, `self.requires_grad_(False)`
;   or such a loop over `self.parameters()`, also through a method it calls
;   on `self`, and thaws nothing: Stable Diffusion's `FrozenAutoencoderKL`,
;   also as a project factory returning only such instances gives it,
;   `get_model(path)`, or a parameter annotated with such a class that
;   the instance keeps, `def __init__(self, fe: FeatureExtractor): self.fe
;   = fe`) or of a module
;   that holds none: a parameter-free `torch.nn` layer (`nn.LogSoftmax`,
;   `nn.ReLU`, `nn.Dropout`, pooling...), a feature transform that keeps
;   its filters in buffers (torchaudio's `MelSpectrogram`, `MFCC`,
;   `Resample`..., kymatio's `Scattering1D`), an `nn.Sequential` or
;   `nn.ModuleList` of such layers, or an instance of a module class of the
;   file or of another module of the project that derives `nn.Module`
;   (or Lightning's `LightningModule`, or such a class) alone, stores in
;   `self` only plain data (numbers,
;   strings, tensors of torch's functions, what `int`, `float`, `str`,
;   `bool` or `len` make of anything, `self.ambient = float(ambient)`, a
;   parameter of the method it
;   computes with, or that the class compares by order or computes with as
;   `self.<name>`, as a loss's warm-up settings `if it < self.start_warm`, counts such as `self.table.weight.numel()`;
;   a parameter named for a setting, `device`, `dtype`, or annotated with a
;   plain class of the file; or one the class only reads as data, its
;   fields, a subscript, a test, `.to(device)` or the device handed to
;   `self.to(...)`, itself or through a name
;   bound from it, `p = self.ode_params` then `p.W * a`, never calling it or
;   a method of it: a settings dataclass of another module),
;   parameter-free layers and frozen tables
;   (`nn.Embedding.from_pretrained(t)`, frozen unless `freeze=False`),
;   and makes no `nn.Parameter`, a TensorRT engine (`torch2trt.TRTModule()`,
;   `torch2trt(model, [x])`), a model of Hugging Face Optimum's ONNX
;   Runtime (`ORTModelForSequenceClassification.from_pretrained(path)`, or
;   a parameter annotated with such a class that the instance keeps: an
;   inference session, not PyTorch), a name bound last, in a block that
;   holds the call, to what runs no torch model: a lambda calling none
;   (`model = lambda t: session.run(None, {"input": t.numpy()})[0]`, an
;   ONNX export checked against the traced model) or an instance of a plain
;   class of the file (no `nn.Module` base, no `forward`) made from no
;   model and calling none (`model = ONNXWrapper(use_cuda, path)` whose
;   `__call__` runs an ONNX Runtime session; not `Predictor(net)` running
;   the network it is handed), or an old-style `torch.autograd.Function`
;   with its own `forward` (a distance), also called through `.forward` or
;   another method (`l2_dist.forward(a, b)`): with no parameter and no
;   input that requires grad, nothing is recorded. Nor the shape smoke test of an
;   untrained model: a model built in the same function or module-level
;   code (`def test(): net = ResNet18(); y = net(torch.randn(2, 3, 32, 32));
;   print(y.size())`, a model file's `if __name__ == "__main__":` check,
;   `for model in [Enc(32), Enc(32, shared=True)]: model(x)`; a
;   function of the script reading the global `net` that its `__main__`
;   block builds there, a speed test; a parameter of a plain function of
;   the file that every call of it, all in module-level code, hands such a
;   model built by a class of the file and handed to no other function,
;   `timing_test(model, X)` after `model = CKCNN(...)` in `__main__`),
;   from a module class of the file or the project (also picked by its
;   name, `eval(model_name)(backbone, n)`), a `torch.nn` layer, a
;   torchvision classification model built with no weights
;   (`torchvision.models.resnet18()`), a timm model built without
;   weights (`timm.create_model(name)`, which loads none unless
;   `pretrained=True`), a
;   function of the file that returns one, a function of another module
;   of the project that builds one and loads nothing into it
;   (`create_RepVGG_B1(deploy=False)`), or the factory of a unit-test
;   class (`Test*`, `*Test`, `*TestCase`) that the concrete tests fill in
;   (`model = self.create_model(data, labels)` where the class's own
;   `create_model` only raises `NotImplementedError`) (not with `pretrained=`,
;   `weights=`, `checkpoint=`... or a weights file among its arguments;
;   `use_checkpoint=True` switches gradient checkpointing and loads
;   nothing; `torch.compile(net)` is the same model), in a scope that
;   loads no weights (`load_state_dict`, `torch.load`, `restore`,
;   `from_pretrained`...), does not train (`.backward()`, an optimizer's
;   `step`, `fit`, `trainer.train()`, `.parameters()`; the `fit` of an
;   object scikit-learn, UMAP, SciPy, XGBoost or LightGBM made, `reducer =
;   MDS(2)` then `reducer.fit_transform(x)`, fits that object; `net.train()` on
;   the model itself only switches its mode, as `net.train(False)` does,
;   while `net.train(train_loader, num_epochs=5)`, a model's own fitting
;   method, trains it; `for p in
;   model.parameters(): nn.init.xavier_uniform_(p)` only initializes it,
;   as `sum(p.numel() for p in model.parameters())` only counts) and hands the model to no
;   call but `print`-like ones, `torch.compile` and the counters of FLOPs
;   and parameters (`FlopCountAnalysis(model, x)`, `summary(model, size)`,
;   thop's `profile(model, inputs=...)`, also where the script forgot its
;   import, a project's `get_number_of_parameters(model)`; reading data
;   with `load_graph_data(...)` loads no weights, and writing them out,
;   `torch.save(net.state_dict(), path)`, `torch.onnx.export(net, ...)`,
;   gives the model none; a function of the file whose own
;   parameter or local has the model's name is not handed it):
;   such a model was never trained, its output
;   is no evaluation. Nor a method named like an evaluation that
;   is its class's entry point: it neither calls `.eval()` nor loops, and
;   hands the model's output back as it is (`def predict(self, x): return
;   self.network(x)`, `self.fake_B = self.netG(self.real_A)`, or a name it
;   returns, alone, in a tuple or as a value of a returned dict literal):
;   its callers choose the grad mode, an evaluation loop that
;   runs it under no_grad (often in another module) or the class's own
;   training step that backpropagates `self.predict(x)`; a plain function or
;   closure of the script too, when a training loop of the file calls it
;   with gradients on, `def inference(model, images)` whose logits the
;   training loop backpropagates; a method that turns
;   the output into predictions itself (`.argmax(1)`) is still reported.
;   Nor a function named like an evaluation whose result a function of the
;   file with its own backward pass keeps, with a backward or optimizer
;   step after the call in the same loop (`pred, mask = self.predict(imgs,
;   flow)` in the `update` method that then backpropagates a loss of
;   `pred`): that is the training forward; an entry point returning it
;   (`return self.predict(imgs, flow, training=False)`) hands its output
;   back, as above. Nor a function whose result is returned by a function
;   whose own result its caller backpropagates (an actor's
;   `evaluate_policy`, whose action and log-probability the critic term
;   `evaluate_q_with_entropy` returns into the objective that the training
;   step backpropagates): its forward is part of the graph being trained.
;   Nor a forward after `.eval()` whose output (not detached) reaches what
;   its function returns, when a training function of the file keeps that
;   result and follows it with its backward (`penalty =
;   self._anchor_penalty()`, then `loss = task + w * penalty` and
;   `loss.backward()`: an anchor computed in eval mode on purpose); a DQN
;   target network's output, `.detach()`ed before it joins the returned
;   loss, is still reported.
;   Nor a call of a class the file defines, by its name (`m = model(size)`
;   with `class model:` an ensemble wrapper): it builds an instance; a
;   parameter, a loop variable or an assignment of that name in the calling
;   function (or at module level) is a value, whose calls are checked.
;   Nor a forward whose result, or a value computed from it, the method
;   appends to a list attribute of `self` that a method of the class with
;   its own backward pass reads (REINFORCE's acting method:
;   `self.log_probs.append(dist.log_prob(action))`, then `update()`
;   backpropagates a loss built from `zip(self.log_probs, returns)`),
;   whatever the acting method is called; a detached value appended
;   (`self.values.append(v.detach())`) does not count.
;   Nor code that keeps autograd on on purpose: one branch of an `if` whose
;   other branch runs under `torch.no_grad()` (`if train: f = enc(x)` /
;   `else: with torch.no_grad(): f = enc(x)`), or a function named for
;   gradients (`outputs_with_grad`, `grad_cam`; not `..._no_grad` or
;   `..._without_grad`). Nor a model's own code (a loop over chunks in
;   its `forward`: its caller decides about gradients), nor a forward run
;   once for its side effects, its result dropped, outside any loop (a
;   warm-up that gives lazy layers their shapes before DDP wraps the model),
;   nor one forward, outside any loop, of tensors made up in the same
;   function (`x = torch.randn(10, c, 200, w); return conv(x).size(-1)`,
;   a shape probe or a module's self-test; options given as literals,
;   `just_feats=True`, are no data) unless a model was put in
;   eval mode first there (an inference on purpose).
;
;   What counts as a model class: one deriving `nn.Module` (here or through
;   other classes of the project), and one that defines `forward` without
;   deriving it, unless its bases say it is no module: when every base is
;   `object`, `ABC` (or `metaclass=ABCMeta`), one of `typing`'s (`Generic[T]`,
;   `Protocol`) or a class of the file or the project that is itself no
;   module by this rule, it is a plain class, such as a data transform
;   (PyTorch Geometric's `ToUndirected` over `BaseTransform(ABC)`): its calls
;   are not a model's, and its other methods are not a model's own code. A
;   class with no base at all, or a base oomlint cannot find (a library's),
;   stays a model. A call of a function of the file that builds and returns
;   a module (`mlp(in_dim, dims, out_dim)`) builds one, even where that
;   function's own local shares its name (`mlp = nn.ModuleList()`): no
;   forward pass. A class whose `forward` the file calls only under no_grad
;   (a flow's `@torch.no_grad()` helpers calling `self.forward(x)`) is still
;   a model its users call with gradients on, no wrapper.
;   Nor a call in one branch of `if not train:` whose other branch puts the
;   model in training mode, `train` being a parameter of a function around
;   it: a helper running the model in the mode its caller asks for
;   (score_sde's `get_model_fn(model, train=False)`), whose callers choose
;   the grad mode as well; nor a call after an `.eval()` made in such a
;   branch (`if train: model.train()` / `else: model.eval()`, then
;   `return model(x, sigma)`).
;   Nor a forward in a function whose result a module importing the file
;   backpropagates (a differentiable reward: the reward model, in eval
;   mode, scores the generated videos, the scores become the loss
;   `reward_scorer` returns, and the training script runs `loss =
;   scorer.reward_scorer(...)` then `loss.backward()`): the generator learns
;   through that graph. The importers are matched by the function's name
;   (a star import, `from utils import *`, imports the module too; a
;   script's training loop at module level backpropagates as a function's
;   does).
;   The same for a method that a base class of the project runs as a
;   statement of its own before backpropagating an attribute of `self`
;   (`self.rollout(...)` then `self.loss.backward()`: the rollout leaves
;   its loss on `self.loss`, a navigation agent's training step).
;   Nor a model built from literals after a backward pass of its function
;   (a unit test checking one layer's gradients, then a fresh layer's
;   shapes), `nn.DataParallel(net)` of an untrained `net`, or a name each
;   binding of which makes a parameter-free module or no module at all
;   (`nn.CosineSimilarity(dim=1)` on one branch, an autograd `Function` on
;   the other, or a class imported from a module of the project whose text
;   never names it and that has no star import: that import fails before
;   the binding runs), or a function's parameter every other binding of whose
;   name in the file makes a parameter-free module (`sampler =
;   NegativeSampler(n)` handed to `collate(batch, sampler)`).
;   Nor a call whose result goes straight to `.numpy()` in its expression
;   (`model.encode(g).squeeze(0).cpu().numpy()`, also through
;   `torch.sigmoid(...)` and subscripts, with no `.detach()` on the way):
;   NumPy refuses a tensor that requires grad, so wherever that line runs,
;   gradients are off (a caller's `no_grad`, a decorated method of a class
;   the script cannot see, frozen weights). Nor the calls of a model that
;   a function named for evaluation first puts in training mode itself
;   (`self.mixer.train()` in a Q-learner's `evaluate_q`, which returns the
;   loss its trainer backpropagates), nor torchvision's weights enums
;   (`ResNet50_Weights.DEFAULT.transforms()` is the image preprocessing of
;   the checkpoint), nor a call that makes a model: what it returns is
;   moved (`.to(device)`, `.cuda()`) and bound to a name or attribute used
;   as a module in its scope (`self.clf = self.net(n_classes).to(device)`,
;   then `self.clf.train()`), a network class handed in and built, or a
;   call given nothing but a class count (`self.model(self.num_classes)`),
;   nor a call handed a model (`method(x_s, x_q, model=model)`: a
;   few-shot method, a trainer's step or an attack runs the model itself
;   and decides about gradients itself; a callee named as the network,
;   `model(text_model, batch)`, is still its forward), nor the variable of a `for` or a
;   comprehension over a list the file fills only with scikit-learn,
;   XGBoost or LightGBM estimators (`[model.predict(X) for model in
;   cv_models]` after `cv_models.append(lgb.train(...))`), whatever else
;   the name is bound to. A plain name calls the function its scope sees:
;   a function nested in the one around the call (each beam search of a
;   file defining its own `predict_word`) before a module-level one, so
;   a nested helper whose only caller runs it under no_grad is not
;   reported because another method's helper of the same name runs with
;   gradients on; `self.predict(model, x)` in a base class that does not
;   define `predict` calls every subclass's override of the file, each as
;   its callers run it (a trainer's `_eval_accuracy` under no_grad). Nor a
;   function that a caller dispatches, calling it
;   under `torch.no_grad()` in one branch of an `if` and with gradients on
;   in another (`if prevent_grads: with torch.no_grad(): self.test_()
;   else: self.test_()`: the caller asks for gradients when it needs
;   them); nor a method of the file's classes whose body runs wholly
;   under no_grad by its own decorator or blocks
;   (`irl.predict_with_irl(model, x)`); nor, in a file that never calls
;   backward, the forwards of a script that hands optimizers to a call
;   (`loss.minimize_step(enc_opt, dec_opt)`: it trains through a project
;   object). A module's mode switch (`self.generator.eval()`) is no call
;   of a trainer's own `eval` method.
;   Nor another framework's code whose models look like PyTorch's: a
;   file importing Chainer, Paddle, MXNet, OneFlow, MindSpore, MegEngine or
;   Jittor and never `torch`, or a function importing one of them itself
;   (a benchmark with `chainer.config.enable_backprop = False`).
;
;   ## Why is this bad?
;   With gradient tracking on, every operation of the forward pass records
;   itself in the autograd graph and keeps the tensors it needs for a
;   backward pass: most of the model's activations. For a model in training
;   that is the price of computing gradients; for evaluation it is memory
;   spent for nothing. A forward pass under `torch.no_grad()` frees each
;   activation as soon as the next layer has used it, so evaluation needs a
;   fraction of the memory and runs faster. Evaluation batches are often
;   larger than training batches on the assumption that no gradients are
;   kept, which is exactly when the missing `no_grad` runs out of memory.
;
;   `model.eval()` does not turn gradients off: it only switches dropout
;   and batch normalization to inference behaviour.
;
;   When the outputs are also stored across batches (see OOM102), every
;   batch's activations stay alive and memory grows until the job fails.
;
;   ## Example
;   ```python
;   def evaluate(model, val_loader):
;       model.eval()
;       correct = 0
;       for images, labels in val_loader:
;           logits = model(images)
;           correct += (logits.argmax(1) == labels).sum().item()
;       return correct / len(val_loader.dataset)
;   ```
;
;   ## Use instead
;   ```python
;   @torch.no_grad()
;   def evaluate(model, val_loader):
;       model.eval()
;       correct = 0
;       for images, labels in val_loader:
;           logits = model(images)
;           correct += (logits.argmax(1) == labels).sum().item()
;       return correct / len(val_loader.dataset)
;   ```
;   Inside a larger function, wrap the evaluation loop in
;   `with torch.no_grad():` instead. `torch.inference_mode()` saves a little
;   more, but its tensors cannot be used in autograd later.
;
;   ## Fix safety
;   When the whole function is an evaluation (it is named `evaluate`,
;   `validate`, `test`, `predict`, ...) and never calls `.backward()`, the fix
;   adds `@torch.no_grad()` above it. It is unsafe: code reached from that
;   function that does need gradients (an attack or an explanation method in
;   another module) would stop working. Elsewhere (a validation loop after
;   `model.eval()` inside a training function) where the no-grad region
;   should begin depends on the code around the call, so the fix is only
;   described: wrap the loop in `with torch.no_grad():`.
;
;   ## References
;   - [torch.no_grad](https://pytorch.org/docs/stable/generated/torch.no_grad.html)
;   - [torch.inference_mode](https://pytorch.org/docs/stable/generated/torch.inference_mode.html)
;   - [Autograd mechanics: locally disabling gradient computation](https://pytorch.org/docs/stable/notes/autograd.html#locally-disabling-gradient-computation)
;   - [torch.nn.Module.eval](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.eval)

; A function that is all evaluation (by its name) and never trains: the fix
; decorates it.
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report @evalcall
  (#not-match? @fn "\\.(eval|train|to|cuda|cpu|half|float|double|bfloat16|type|parameters|named_parameters|buffers|named_buffers|modules|named_modules|children|named_children|state_dict|load_state_dict|zero_grad|requires_grad_|apply|register_\\w+|generate|save_pretrained|predict_(batch_)?(json|instance)|get_\\w+|set_\\w+)$")
  (#oom-file-imports? "torch(\\..*)?")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-not-file-mentions? "LightningModule")
  (#oom-not-file-calls? "torch\\.(autograd(\\.functional)?|func)\\.(grad|backward|vjp|jvp|jacobian|hessian|hvp|vhp|jacrev|jacfwd)|higher\\.(get_diff_optim|create_diff_optim|innerloop_ctx|monkeypatch|patch\\.monkeypatch)|torchviz\\.(make_dot|make_dot_from_trace)")
  (#oom-is-model? @fn)
  (#oom-not-frozen? @fn)
  (#oom-not-untrained? @fn)
  (#oom-not-warm-up? @report)
  (#oom-not-handed-to-library? @report)
  (#oom-not-input-requires-grad? @report)
  (#oom-not-returned-to-backward? @report)
  (#oom-in-eval-function? @report)
  (#oom-not-function-trains? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-to-numpy? @report)
  (#oom-not-hands-model? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; An evaluation context (function or code after `model.eval()`) that never
; trains.
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#not-match? @fn "\\.(eval|train|to|cuda|cpu|half|float|double|bfloat16|type|parameters|named_parameters|buffers|named_buffers|modules|named_modules|children|named_children|state_dict|load_state_dict|zero_grad|requires_grad_|apply|register_\\w+|generate|save_pretrained|predict_(batch_)?(json|instance)|get_\\w+|set_\\w+)$")
  (#oom-file-imports? "torch(\\..*)?")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-not-file-mentions? "LightningModule")
  (#oom-not-file-calls? "torch\\.(autograd(\\.functional)?|func)\\.(grad|backward|vjp|jvp|jacobian|hessian|hvp|vhp|jacrev|jacfwd)|higher\\.(get_diff_optim|create_diff_optim|innerloop_ctx|monkeypatch|patch\\.monkeypatch)|torchviz\\.(make_dot|make_dot_from_trace)")
  (#oom-is-model? @fn)
  (#oom-not-frozen? @fn)
  (#oom-not-untrained? @fn)
  (#oom-not-warm-up? @report)
  (#oom-not-handed-to-library? @report)
  (#oom-not-input-requires-grad? @report)
  (#oom-not-returned-to-backward? @report)
  (#oom-in-eval-context? @report)
  (#oom-not-function-trains? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-to-numpy? @report)
  (#oom-not-hands-model? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; A batch loop after `model.eval()` that does no training, in a function that
; trains elsewhere (the validation loop of a `fit` function).
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#not-match? @fn "\\.(eval|train|to|cuda|cpu|half|float|double|bfloat16|type|parameters|named_parameters|buffers|named_buffers|modules|named_modules|children|named_children|state_dict|load_state_dict|zero_grad|requires_grad_|apply|register_\\w+|generate|save_pretrained|predict_(batch_)?(json|instance)|get_\\w+|set_\\w+)$")
  (#oom-file-imports? "torch(\\..*)?")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-not-file-mentions? "LightningModule")
  (#oom-not-file-calls? "torch\\.(autograd(\\.functional)?|func)\\.(grad|backward|vjp|jvp|jacobian|hessian|hvp|vhp|jacrev|jacfwd)|higher\\.(get_diff_optim|create_diff_optim|innerloop_ctx|monkeypatch|patch\\.monkeypatch)|torchviz\\.(make_dot|make_dot_from_trace)")
  (#oom-is-model? @fn)
  (#oom-not-frozen? @fn)
  (#oom-not-untrained? @fn)
  (#oom-not-warm-up? @report)
  (#oom-not-handed-to-library? @report)
  (#oom-not-input-requires-grad? @report)
  (#oom-not-returned-to-backward? @report)
  (#oom-in-eval-context? @report)
  (#oom-in-loop? @report)
  (#oom-not-in-training-loop? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-to-numpy? @report)
  (#oom-not-hands-model? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; A batch loop in a file that never calls backward (pure inference). A
; file that zeroes or steps an optimizer, or hands one to a call, trains
; somewhere: its backward pass may be in another module (MAE's
; `loss_scaler(loss, optimizer)`, `trainer.update(loss, trainer.dis_opt)`,
; `loss.minimize_step(enc_opt, gen_opt)`; a bare `opt` is left out: it is
; most often a script's parsed options).
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#not-match? @fn "\\.(eval|train|to|cuda|cpu|half|float|double|bfloat16|type|parameters|named_parameters|buffers|named_buffers|modules|named_modules|children|named_children|state_dict|load_state_dict|zero_grad|requires_grad_|apply|register_\\w+|generate|save_pretrained|predict_(batch_)?(json|instance)|get_\\w+|set_\\w+)$")
  (#oom-file-imports? "torch(\\..*)?")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-not-file-mentions? "LightningModule|training_step|manual_backward")
  (#oom-not-file-calls? "torch\\.(autograd(\\.functional)?|func)\\.(grad|backward|vjp|jvp|jacobian|hessian|hvp|vhp|jacrev|jacfwd)|higher\\.(get_diff_optim|create_diff_optim|innerloop_ctx|monkeypatch|patch\\.monkeypatch)|torchviz\\.(make_dot|make_dot_from_trace)")
  (#oom-not-file-trains?)
  (#oom-not-file-mentions? "zero_grad\\s*\\(|\\b\\w*opt\\w*\\.step\\s*\\(|[(,]\\s*(self\\.)?\\w*optim\\w*\\s*[,)]|[(,]\\s*(\\w+\\.)*(\\w+_opt|opt_\\w+)\\s*[,)]")
  (#oom-is-model? @fn)
  (#oom-not-frozen? @fn)
  (#oom-not-untrained? @fn)
  (#oom-not-warm-up? @report)
  (#oom-not-handed-to-library? @report)
  (#oom-not-input-requires-grad? @report)
  (#oom-not-returned-to-backward? @report)
  (#oom-in-loop? @report)
  (#oom-not-in-model-method? @report)
  (#oom-not-in-method? @report "(\\w+_)?(train|training)_(step|iter|iteration|batch)" ".+")
  (#oom-not-in-unit-test? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-to-numpy? @report)
  (#oom-not-hands-model? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))

; A forward pass after `model.eval()` in a function that trains, where no
; backward pass follows it (the validation after the optimizer step).
((call
  function: (_) @fn
  arguments: (argument_list) @args) @report
  (#not-match? @fn "\\.(eval|train|to|cuda|cpu|half|float|double|bfloat16|type|parameters|named_parameters|buffers|named_buffers|modules|named_modules|children|named_children|state_dict|load_state_dict|zero_grad|requires_grad_|apply|register_\\w+|generate|save_pretrained|predict_(batch_)?(json|instance)|get_\\w+|set_\\w+)$")
  (#oom-file-imports? "torch(\\..*)?")
  (#oom-not-file-imports? "(pytest|unittest|hypothesis)(\\..*)?")
  (#oom-not-file-mentions? "(?m)^class Test\\w*\\s*[(:]")
  (#oom-not-file-mentions? "LightningModule")
  (#oom-not-file-calls? "torch\\.(autograd(\\.functional)?|func)\\.(grad|backward|vjp|jvp|jacobian|hessian|hvp|vhp|jacrev|jacfwd)|higher\\.(get_diff_optim|create_diff_optim|innerloop_ctx|monkeypatch|patch\\.monkeypatch)|torchviz\\.(make_dot|make_dot_from_trace)")
  (#oom-is-model? @fn)
  (#oom-not-frozen? @fn)
  (#oom-not-untrained? @fn)
  (#oom-not-warm-up? @report)
  (#oom-not-handed-to-library? @report)
  (#oom-not-input-requires-grad? @report)
  (#oom-not-returned-to-backward? @report)
  (#oom-in-eval-context? @report)
  (#oom-not-backward-follows? @report)
  (#oom-not-in-no-grad? @report)
  (#oom-not-to-numpy? @report)
  (#oom-not-hands-model? @report)
  (#oom-not-foreign-code? @report "(paddle|mxnet|chainer|oneflow|mindspore|megengine|jittor)(\\..*)?"))
