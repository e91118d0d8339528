/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A .params file's G1 points decoded on the device (srs_decode.cuh), so
 * that a key's bases go from the file to the card without a decoded copy
 * in host memory.
 */
#include <stdint.h>

#include "cuda/context.cuh"
#include "cuda/srs_decode.cuh"

using namespace cuzk;

namespace {

struct srs_decode_step {
        static constexpr unsigned block_threads = 256;
        const uint8_t *in;
        g1_affine_dev *out;
        srs_decode_consts k;
        unsigned long long *first_bad;

        __device__ void operator()(uint64_t i) const {
                uint8_t bytes[SRS_G1_BYTES];
                g1_affine_dev p;
                /* 96-byte records from a 256-byte aligned buffer: 16-byte loads. */
                const uint4 *src = (const uint4 *)(in + i * SRS_G1_BYTES);
                CUZK_UNROLL
                for (int j = 0; j < SRS_G1_BYTES / 16; j++)
                        *(uint4 *)&bytes[16 * j] = src[j];
                if (srs_g1_decode(bytes, k, &p))
                        out[i] = p;
                else
                        atomicMin(first_bad, (unsigned long long)i);
        }
};

} // namespace

extern "C" int gpu_g1_decode_from_host(gpu_context_t *ctx, g1_affine_t *d_out, const void *encoded,
                                       uint64_t n, void *d_staging, uint64_t *d_word,
                                       uint64_t *ret_bad) {
        static const srs_decode_consts k = srs_decode_consts_make();
        unsigned long long first_bad = ~0ull;

        *ret_bad = UINT64_MAX;
        if (n == 0)
                return 0;
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaMemcpyAsync(d_word, &first_bad, sizeof(first_bad), cudaMemcpyHostToDevice,
                                     ctx->stream));
        GPU_TRY_R(gpu_copy_staged(ctx, d_staging, encoded, n * SRS_G1_BYTES, ctx->stream));
        GPU_TRY_R(
                gpu_launch_step(ctx,
                                srs_decode_step{(const uint8_t *)d_staging, (g1_affine_dev *)d_out,
                                                k, (unsigned long long *)d_word},
                                n));
        GPU_TRY(ctx, cudaMemcpyAsync(&first_bad, d_word, sizeof(first_bad), cudaMemcpyDeviceToHost,
                                     ctx->stream));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        *ret_bad = first_bad;
        return 0;
}
