/* `--gpu-memory auto`: the first GPU's total memory, read from nvidia-smi. */
#ifndef OOM_CLI_GPU_H
#define OOM_CLI_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The total memory of the first GPU nvidia-smi lists into *BYTES and its name
 *  into NAME; false (with the reason in NAME) when nvidia-smi is not on PATH or
 *  lists no GPU. */
bool cli_gpu_memory_auto(uint64_t *bytes, char *name, size_t size);

#endif
