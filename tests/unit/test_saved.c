/* Unit tests of the per-op rules of what autograd keeps for backward (src/estimate/saved.c):
 * each number is derived by hand in its comment from derivatives.yaml of PyTorch 2.x. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "estimate/saved.h"

/* one op on inputs of N0 and N1 elements (N1 < 0: one input), fp32, both needing gradients */
static saved_in ins(int64_t n0, int64_t n1, int64_t out) {
  saved_in in;
  memset(&in, 0, sizeof in);
  in.nin = n1 < 0 ? 1 : 2;
  in.in_elems[0] = n0;
  in.in_bits[0] = 32;
  in.in_grad[0] = true;
  if (n1 >= 0) {
    in.in_elems[1] = n1;
    in.in_bits[1] = 32;
    in.in_grad[1] = true;
  }
  in.out_elems = out;
  in.out_bits = 32;
  in.training = true;
  return in;
}


static int64_t bytes_of(op_kind k, const saved_in *in) {
  saved_out out;
  saved_rule(k, in, &out);
  return saved_bytes(in, &out);
}


static void test_linear_and_conv(void **state) {
  (void)state;
  /* nn.Linear(9216, 128) on 64 x 9216 fp32: the input, 64 * 9216 * 4 = 2,359,296;
   * the weight is a parameter (not counted) */
  saved_in in = ins(64 * 9216, 128 * 9216, 64 * 128);
  in.in_param[1] = true;
  assert_int_equal(bytes_of(OP_LINEAR, &in), 2359296);
  /* under autocast the weight is a 16-bit copy, kept too: 768 x 2304 x 2 = 3,538,944
   * besides the 16-bit input 12 x 1024 x 768 x 2 = 18,874,368 */
  in = ins(12 * 1024 * 768, 2304 * 768, 12 * 1024 * 2304);
  in.in_bits[0] = in.in_bits[1] = 16;
  assert_int_equal(bytes_of(OP_LINEAR, &in), 18874368 + 3538944);
  /* ... but only when the input needs a gradient: mm keeps mat2 for self's gradient */
  in.in_grad[0] = false;
  assert_int_equal(bytes_of(OP_LINEAR, &in), 18874368);
  /* a frozen weight (requires_grad=False) under an input that needs a gradient:
   * addmm keeps mat1 (the input) only for mat2's gradient, so nothing but the
   * 16-bit weight copy, which the input's gradient reads: 3,538,944 */
  in.in_grad[0] = true;
  in.in_grad[1] = false;
  assert_int_equal(bytes_of(OP_LINEAR, &in), 3538944);
  /* and in fp32 the weight is the parameter itself: nothing at all */
  in = ins(64 * 9216, 128 * 9216, 64 * 128);
  in.in_param[1] = true;
  in.in_grad[1] = false;
  assert_int_equal(bytes_of(OP_LINEAR, &in), 0);
  /* nn.Conv2d(3, 64, 7, 2, 3) on 256 x 3 x 224 x 224: the input, 256*3*224*224*4 = 154,140,672 */
  in = ins(256 * 3 * 224 * 224, 64 * 3 * 7 * 7, 256 * 64 * 112 * 112);
  in.in_param[1] = true;
  assert_int_equal(bytes_of(OP_CONV, &in), 154140672);
}


static void test_activations_keep_input_or_output(void **state) {
  (void)state;
  /* ReLU keeps its result: 64 x 32 x 26 x 26 x 4 = 5,537,792 */
  saved_in in = ins(64 * 32 * 26 * 26, -1, 64 * 32 * 26 * 26);
  saved_out out;
  saved_rule(OP_SAVE_OUTPUT, &in, &out);
  assert_true(out.output);
  assert_int_equal(out.inputs, 0);
  assert_int_equal(saved_bytes(&in, &out), 5537792);
  /* GELU keeps its input, here 16-bit: 12 x 1024 x 3072 x 2 = 75,497,472 */
  in = ins(12 * 1024 * 3072, -1, 12 * 1024 * 3072);
  in.in_bits[0] = in.out_bits = 16;
  saved_rule(OP_SAVE_INPUT, &in, &out);
  assert_false(out.output);
  assert_int_equal(out.inputs, 1);
  assert_int_equal(saved_bytes(&in, &out), 75497472);
  /* views, add, cat keep nothing */
  assert_int_equal(bytes_of(OP_NONE, &in), 0);
}


static void test_dropout_mask(void **state) {
  (void)state;
  /* native_dropout keeps a bool mask, one byte per element: 64 x 9216 = 589,824 */
  saved_in in = ins(64 * 9216, -1, 64 * 9216);
  in.p = 0.25;
  assert_int_equal(bytes_of(OP_DROPOUT, &in), 589824);
  /* p == 0 and eval mode keep nothing */
  in.p = 0;
  assert_int_equal(bytes_of(OP_DROPOUT, &in), 0);
  in.p = 0.5;
  in.training = false;
  assert_int_equal(bytes_of(OP_DROPOUT, &in), 0);
}


static void test_pools(void **state) {
  (void)state;
  /* max_pool2d(2) of 64 x 64 x 24 x 24: the input 64*64*24*24*4 = 9,437,184 and int64
   * indices of the 64 x 64 x 12 x 12 output, 589,824 * 8 = 4,718,592 */
  saved_in in = ins(64 * 64 * 24 * 24, -1, 64 * 64 * 12 * 12);
  assert_int_equal(bytes_of(OP_MAX_POOL, &in), 9437184 + 4718592);
  /* avg_pool keeps its input */
  assert_int_equal(bytes_of(OP_SAVE_INPUT, &in), 9437184);
}


static void test_norms(void **state) {
  (void)state;
  /* batch norm of 256 x 64 x 112 x 112 in training: the input, 822,083,584 bytes, and
   * save_mean + save_invstd, 2 x 64 fp32 = 512 */
  saved_in in = ins(256 * 64 * 112 * 112, -1, 256 * 64 * 112 * 112);
  in.rows = 64;
  assert_int_equal(bytes_of(OP_BATCH_NORM, &in), 822083584 + 512);
  /* layer norm of 12 x 1024 x 768: the input 37,748,736 and mean + rstd per row,
   * 2 x 12,288 x 4 = 98,304 */
  in = ins(12 * 1024 * 768, -1, 12 * 1024 * 768);
  in.rows = 12 * 1024;
  assert_int_equal(bytes_of(OP_LAYER_NORM, &in), 37748736 + 98304);
}


static void test_binary_ops(void **state) {
  (void)state;
  /* a @ b, both needing gradients: each operand; 4x4x64x32 and 4x4x32x64 fp32 = 131,072 each */
  saved_in in = ins(4 * 4 * 64 * 32, 4 * 4 * 32 * 64, 4 * 4 * 64 * 64);
  assert_int_equal(bytes_of(OP_MATMUL, &in), 2 * 131072);
  /* x * mask where the mask needs no gradient: x is not needed (its gradient is
   * grad * mask), the mask is: 131,072 */
  in.in_grad[1] = false;
  saved_out out;
  saved_rule(OP_MUL, &in, &out);
  assert_int_equal(out.inputs, 2);
  assert_int_equal(saved_bytes(&in, &out), 131072);
  /* x / y, y needing no gradient: only the divisor */
  saved_rule(OP_DIV, &in, &out);
  assert_int_equal(out.inputs, 2);
  /* x / y, both needing gradients: both */
  in.in_grad[1] = true;
  saved_rule(OP_DIV, &in, &out);
  assert_int_equal(out.inputs, 3);
}


static void test_embedding_and_losses(void **state) {
  (void)state;
  /* embedding keeps the int64 indices: 12 x 1024 x 8 = 98,304 */
  saved_in in = ins(12 * 1024, 50304 * 768, 12 * 1024 * 768);
  in.in_bits[0] = 64;
  in.in_grad[0] = false;
  in.in_param[1] = true;
  assert_int_equal(bytes_of(OP_EMBEDDING, &in), 98304);
  /* cross_entropy of 64 x 10 fp32 logits and 64 int64 targets: log_softmax's result
   * 2,560, the target 512 and total_weight 4 */
  in = ins(64 * 10, 64, 1);
  in.in_bits[1] = 64;
  in.in_grad[1] = false;
  assert_int_equal(bytes_of(OP_CROSS_ENTROPY, &in), 2560 + 512 + 4);
  /* under autocast, 16-bit logits of 12,288 x 50,304: the 16-bit result 1,236,271,104,
   * nll_loss's fp32 copy 2,472,542,208, the target 98,304 and 4 */
  in = ins(12288 * 50304, 12288, 1);
  in.in_bits[0] = 16;
  in.in_bits[1] = 64;
  in.autocast_bits = 16;
  assert_int_equal(bytes_of(OP_CROSS_ENTROPY, &in), 1236271104LL + 2472542208LL + 98304 + 4);
  /* nll_loss of 64 x 10 log-probabilities: the input 2,560, the target 512, total_weight 4 */
  in = ins(64 * 10, 64, 1);
  in.in_bits[1] = 64;
  assert_int_equal(bytes_of(OP_NLL_LOSS, &in), 2560 + 512 + 4);
}


static void test_attention(void **state) {
  (void)state;
  /* sdpa of 16-bit q, k, v of 12 x 12 x 1024 x 64 (9,437,184 elements x 2 = 18,874,368
   * bytes each), the output as large, the logsumexp 12 x 12 x 1024 fp32 = 589,824 and the
   * philox seed and offset, 16 */
  int64_t n = 12 * 12 * 1024 * 64;
  saved_in in;
  memset(&in, 0, sizeof in);
  in.nin = 3;
  for (int i = 0; i < 3; i++) {
    in.in_elems[i] = n;
    in.in_bits[i] = 16;
    in.in_grad[i] = true;
  }
  in.out_elems = n;
  in.out_bits = 16;
  in.rows = 12 * 12 * 1024;
  assert_int_equal(bytes_of(OP_SDPA, &in), 4 * 18874368 + 589824 + 16);
  /* masked_fill keeps the bool mask: 1 x 1 x 64 x 64 = 4,096 */
  saved_in m = ins(4 * 4 * 64 * 64, 64 * 64, 4 * 4 * 64 * 64);
  m.in_bits[1] = 8;
  m.in_grad[1] = false;
  assert_int_equal(bytes_of(OP_MASKED_FILL, &m), 4096);
}


static void test_cudnn_rnn(void **state) {
  (void)state;
  /* nn.LSTM(200, 200, 2) over 35 steps of 20: the input 35x20x200x4 = 560,000, h0 and
   * c0 2x20x200x4 = 32,000 each, the output 560,000, and the reserve space of
   * 35 x 20 x 200 x (6 x 2 - 1) = 1,540,000 floats = 6,160,000 + 256 bytes:
   * 7,344,256, as PyTorch 2.11 keeps on an H200 */
  saved_in in;
  memset(&in, 0, sizeof in);
  in.nin = 3;
  int64_t e[3] = {35 * 20 * 200, 2 * 20 * 200, 2 * 20 * 200};
  for (int i = 0; i < 3; i++) {
    in.in_elems[i] = e[i];
    in.in_bits[i] = 32;
  }
  in.in_grad[0] = true;
  in.out_elems = 35 * 20 * 200;
  in.out_bits = 32;
  in.rows = 35 * 20 * 200 * (6 * 2 - 1);
  assert_int_equal(bytes_of(OP_RNN, &in), 7344256);
  /* a GRU has no c0: 7 x layers - 1 gates' worth, here one layer of 64 x 50 x 256:
   * input 50x64x128x4 = 1,638,400, h0 65,536, output 3,276,800, reserve
   * 50x64x256x6x4 + 256 = 19,661,056: 24,641,792 */
  memset(&in, 0, sizeof in);
  in.nin = 2;
  in.in_elems[0] = 50 * 64 * 128;
  in.in_elems[1] = 64 * 256;
  in.in_bits[0] = in.in_bits[1] = 32;
  in.out_elems = 50 * 64 * 256;
  in.out_bits = 32;
  in.rows = 50 * 64 * 256 * (7 * 1 - 1);
  assert_int_equal(bytes_of(OP_RNN, &in), 24641792);
}


int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_linear_and_conv),
    cmocka_unit_test(test_activations_keep_input_or_output),
    cmocka_unit_test(test_dropout_mask),
    cmocka_unit_test(test_pools),
    cmocka_unit_test(test_norms),
    cmocka_unit_test(test_binary_ops),
    cmocka_unit_test(test_embedding_and_losses),
    cmocka_unit_test(test_attention),
    cmocka_unit_test(test_cudnn_rnn),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
