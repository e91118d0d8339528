/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x86-64 field arithmetic for n = 4 (Fr) and n = 6 (Fp) limbs: modular
 * addition and subtraction (end of the file), and Montgomery multiplication
 * and squaring, r = a * b / 2^(64n) mod m, with the BMI2/ADX instructions: mulx
 * multiplies without touching the flags, adcx and adox add along two
 * independent carry chains (CF and OF), so the low and high halves of one
 * row of products are summed in a single pass. System V AMD64 ABI.
 *
 * Preconditions (zk/mont_x86_64.h): a, b < m, m odd, and m < 2^(64n - 1),
 * which both BLS12-381 moduli satisfy with room to spare. With that bound
 * the running sum of a CIOS round, T + a*b_i + q*m < 2m + 2^65 m, fits in
 * n + 1 limbs, so no round needs an extra carry word, and the result before
 * the final conditional subtraction is below 2m.
 *
 * r may alias a or b: all inputs are read before r is written.
 * Comments are C style because this file goes through the C preprocessor.
 */
#if defined(__x86_64__) && defined(__ELF__)

#if defined(__CET__)
#define ENTRY_LANDING endbr64
#else
#define ENTRY_LANDING
#endif

        .text

/*
 * t0..t6 += rdx * src[0..5], for a 7-limb accumulator whose top limb t6 is
 * free on entry (it receives the high word of the last product). lo/hi are
 * scratch, %rax must be zero. The two carry chains end in t6, which cannot
 * overflow because the true sum fits in 7 limbs.
 */
.macro ROW6_FRESH src, lo, hi, t0, t1, t2, t3, t4, t5, t6
        xorl    %eax, %eax
        mulxq   0(\src), \lo, \hi
        adoxq   \lo, \t0
        adcxq   \hi, \t1
        mulxq   8(\src), \lo, \hi
        adoxq   \lo, \t1
        adcxq   \hi, \t2
        mulxq   16(\src), \lo, \hi
        adoxq   \lo, \t2
        adcxq   \hi, \t3
        mulxq   24(\src), \lo, \hi
        adoxq   \lo, \t3
        adcxq   \hi, \t4
        mulxq   32(\src), \lo, \hi
        adoxq   \lo, \t4
        adcxq   \hi, \t5
        mulxq   40(\src), \lo, \t6
        adoxq   \lo, \t5
        adcxq   %rax, \t6
        adoxq   %rax, \t6
.endm

/* As ROW6_FRESH, but t6 already holds a value that is accumulated into. */
.macro ROW6_ACC src, lo, hi, t0, t1, t2, t3, t4, t5, t6
        xorl    %eax, %eax
        mulxq   0(\src), \lo, \hi
        adoxq   \lo, \t0
        adcxq   \hi, \t1
        mulxq   8(\src), \lo, \hi
        adoxq   \lo, \t1
        adcxq   \hi, \t2
        mulxq   16(\src), \lo, \hi
        adoxq   \lo, \t2
        adcxq   \hi, \t3
        mulxq   24(\src), \lo, \hi
        adoxq   \lo, \t3
        adcxq   \hi, \t4
        mulxq   32(\src), \lo, \hi
        adoxq   \lo, \t4
        adcxq   \hi, \t5
        mulxq   40(\src), \lo, \hi
        adoxq   \lo, \t5
        adcxq   \hi, \t6
        adoxq   %rax, \t6
.endm

/* 4-limb versions of the two rows above. */
.macro ROW4_FRESH src, lo, hi, t0, t1, t2, t3, t4
        xorl    %eax, %eax
        mulxq   0(\src), \lo, \hi
        adoxq   \lo, \t0
        adcxq   \hi, \t1
        mulxq   8(\src), \lo, \hi
        adoxq   \lo, \t1
        adcxq   \hi, \t2
        mulxq   16(\src), \lo, \hi
        adoxq   \lo, \t2
        adcxq   \hi, \t3
        mulxq   24(\src), \lo, \t4
        adoxq   \lo, \t3
        adcxq   %rax, \t4
        adoxq   %rax, \t4
.endm

.macro ROW4_ACC src, lo, hi, t0, t1, t2, t3, t4
        xorl    %eax, %eax
        mulxq   0(\src), \lo, \hi
        adoxq   \lo, \t0
        adcxq   \hi, \t1
        mulxq   8(\src), \lo, \hi
        adoxq   \lo, \t1
        adcxq   \hi, \t2
        mulxq   16(\src), \lo, \hi
        adoxq   \lo, \t2
        adcxq   \hi, \t3
        mulxq   24(\src), \lo, \hi
        adoxq   \lo, \t3
        adcxq   \hi, \t4
        adoxq   %rax, \t4
.endm

/*
 * Montgomery step: q = t0 * n0 mod 2^64 makes t + q*m divisible by 2^64;
 * afterwards t0 is zero and t1.. is the shifted accumulator. imul clobbers
 * the flags, so it comes before the row clears them.
 */
.macro REDUCE6_ACC m, n0, lo, hi, t0, t1, t2, t3, t4, t5, t6
        movq    \t0, %rdx
        imulq   \n0, %rdx
        ROW6_ACC \m, \lo, \hi, \t0, \t1, \t2, \t3, \t4, \t5, \t6
.endm

.macro REDUCE6_FRESH m, n0, lo, hi, t0, t1, t2, t3, t4, t5, t6
        movq    \t0, %rdx
        imulq   \n0, %rdx
        ROW6_FRESH \m, \lo, \hi, \t0, \t1, \t2, \t3, \t4, \t5, \t6
.endm

.macro REDUCE4_ACC m, n0, lo, hi, t0, t1, t2, t3, t4
        movq    \t0, %rdx
        imulq   \n0, %rdx
        ROW4_ACC \m, \lo, \hi, \t0, \t1, \t2, \t3, \t4
.endm

.macro REDUCE4_FRESH m, n0, lo, hi, t0, t1, t2, t3, t4
        movq    \t0, %rdx
        imulq   \n0, %rdx
        ROW4_FRESH \m, \lo, \hi, \t0, \t1, \t2, \t3, \t4
.endm

/* t = t - m when t >= m (t < 2m), using c0..c5 as scratch. */
.macro SUB_IF_GEQ6 m, t0, t1, t2, t3, t4, t5, c0, c1, c2, c3, c4, c5
        movq    \t0, \c0
        movq    \t1, \c1
        movq    \t2, \c2
        movq    \t3, \c3
        movq    \t4, \c4
        movq    \t5, \c5
        subq    0(\m), \c0
        sbbq    8(\m), \c1
        sbbq    16(\m), \c2
        sbbq    24(\m), \c3
        sbbq    32(\m), \c4
        sbbq    40(\m), \c5
        cmovncq \c0, \t0
        cmovncq \c1, \t1
        cmovncq \c2, \t2
        cmovncq \c3, \t3
        cmovncq \c4, \t4
        cmovncq \c5, \t5
.endm

.macro SUB_IF_GEQ4 m, t0, t1, t2, t3, c0, c1, c2, c3
        movq    \t0, \c0
        movq    \t1, \c1
        movq    \t2, \c2
        movq    \t3, \c3
        subq    0(\m), \c0
        sbbq    8(\m), \c1
        sbbq    16(\m), \c2
        sbbq    24(\m), \c3
        cmovncq \c0, \t0
        cmovncq \c1, \t1
        cmovncq \c2, \t2
        cmovncq \c3, \t3
.endm

.macro STORE6 dst, t0, t1, t2, t3, t4, t5
        movq    \t0, 0(\dst)
        movq    \t1, 8(\dst)
        movq    \t2, 16(\dst)
        movq    \t3, 24(\dst)
        movq    \t4, 32(\dst)
        movq    \t5, 40(\dst)
.endm

.macro STORE4 dst, t0, t1, t2, t3
        movq    \t0, 0(\dst)
        movq    \t1, 8(\dst)
        movq    \t2, 16(\dst)
        movq    \t3, 24(\dst)
.endm

/*
 * void mont_mul_6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
 *                     const uint64_t m[6], uint64_t m_inv_neg)
 * rdi = r, rsi = a, rdx = b, rcx = m, r8 = -m^-1 mod 2^64.
 * The accumulator rotates through rbx rdi r9 r10 r11 r12 r13 (r is saved on
 * the stack to free rdi); r14/r15 hold each product.
 */
        .globl  mont_mul_6_adx
        .hidden mont_mul_6_adx
        .type   mont_mul_6_adx, @function
        .p2align 5
mont_mul_6_adx:
        ENTRY_LANDING
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        pushq   %rdi
        movq    %rdx, %rbp

        /* round 0: t = a * b[0], a plain single-chain row */
        movq    0(%rbp), %rdx
        mulxq   0(%rsi), %rbx, %rdi
        mulxq   8(%rsi), %r14, %r9
        addq    %r14, %rdi
        mulxq   16(%rsi), %r14, %r10
        adcq    %r14, %r9
        mulxq   24(%rsi), %r14, %r11
        adcq    %r14, %r10
        mulxq   32(%rsi), %r14, %r12
        adcq    %r14, %r11
        mulxq   40(%rsi), %r14, %r13
        adcq    %r14, %r12
        adcq    $0, %r13
        REDUCE6_ACC %rcx, %r8, %r14, %r15, %rbx, %rdi, %r9, %r10, %r11, %r12, %r13

        movq    8(%rbp), %rdx
        ROW6_FRESH %rsi, %r14, %r15, %rdi, %r9, %r10, %r11, %r12, %r13, %rbx
        REDUCE6_ACC %rcx, %r8, %r14, %r15, %rdi, %r9, %r10, %r11, %r12, %r13, %rbx

        movq    16(%rbp), %rdx
        ROW6_FRESH %rsi, %r14, %r15, %r9, %r10, %r11, %r12, %r13, %rbx, %rdi
        REDUCE6_ACC %rcx, %r8, %r14, %r15, %r9, %r10, %r11, %r12, %r13, %rbx, %rdi

        movq    24(%rbp), %rdx
        ROW6_FRESH %rsi, %r14, %r15, %r10, %r11, %r12, %r13, %rbx, %rdi, %r9
        REDUCE6_ACC %rcx, %r8, %r14, %r15, %r10, %r11, %r12, %r13, %rbx, %rdi, %r9

        movq    32(%rbp), %rdx
        ROW6_FRESH %rsi, %r14, %r15, %r11, %r12, %r13, %rbx, %rdi, %r9, %r10
        REDUCE6_ACC %rcx, %r8, %r14, %r15, %r11, %r12, %r13, %rbx, %rdi, %r9, %r10

        movq    40(%rbp), %rdx
        ROW6_FRESH %rsi, %r14, %r15, %r12, %r13, %rbx, %rdi, %r9, %r10, %r11
        REDUCE6_ACC %rcx, %r8, %r14, %r15, %r12, %r13, %rbx, %rdi, %r9, %r10, %r11

        /* result in r13 rbx rdi r9 r10 r11 */
        SUB_IF_GEQ6 %rcx, %r13, %rbx, %rdi, %r9, %r10, %r11, %rax, %rdx, %rsi, %rbp, %r8, %r14
        popq    %rsi
        STORE6  %rsi, %r13, %rbx, %rdi, %r9, %r10, %r11

        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   mont_mul_6_adx, .-mont_mul_6_adx

/*
 * void mont_sqr_6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t m[6],
 *                     uint64_t m_inv_neg)
 * rdi = r, rsi = a, rdx = m (moved to rcx), rcx = n0 (moved to r8).
 *
 * CIOS with half the products: a^2 = sum_i a_i D_i 2^(64 i) with
 * D_i = a_i + 2^64 * 2 (a >> 64 (i + 1)), so round i adds the 6 - i
 * products a_i * D_i at limb i of the accumulator (21 in all instead of 36)
 * next to its Montgomery step, and the reduction of one round overlaps the
 * products of the next. The limbs of 2a (no overflow: a < m < 2^381) are
 * precomputed on the stack; the lowest limb of 2 (a >> 64 (i + 1)), a_(i+1)
 * doubled without the bit shifted in from below, goes through rbp.
 * Bounds: a round adds at most 2^64 * 2a + 2^64 m < 2^447 to an accumulator
 * below 2^384, so 7 limbs suffice; the final value (a^2 + Qm) / 2^384 < 2m.
 * Stack: 0..24 limbs 2..5 of 2a, 32 r.
 */
.macro SQR6_TERM src, tj, tj1
        mulxq   \src, %r14, %r15
        adoxq   %r14, \tj
        adcxq   %r15, \tj1
.endm

        .globl  mont_sqr_6_adx
        .hidden mont_sqr_6_adx
        .type   mont_sqr_6_adx, @function
        .p2align 5
mont_sqr_6_adx:
        ENTRY_LANDING
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        pushq   %rdi
        subq    $32, %rsp
        movq    %rcx, %r8
        movq    %rdx, %rcx

        /* limb j of 2a = (a_j << 1) | (a_(j-1) >> 63), j = 2..5 (lea keeps the flags) */
        movq    8(%rsi), %rax
        shrq    $63, %rax
        movq    16(%rsi), %rbp
        leaq    (%rax,%rbp,2), %rax
        movq    %rax, 0(%rsp)
        shrq    $63, %rbp
        movq    24(%rsi), %r14
        leaq    (%rbp,%r14,2), %rbp
        movq    %rbp, 8(%rsp)
        shrq    $63, %r14
        movq    32(%rsi), %r15
        leaq    (%r14,%r15,2), %r14
        movq    %r14, 16(%rsp)
        shrq    $63, %r15
        movq    40(%rsi), %rax
        leaq    (%r15,%rax,2), %r15
        movq    %r15, 24(%rsp)

        /* round 0: t = a_0 * D_0 in one carry chain, then the Montgomery step */
        movq    8(%rsi), %rbp
        addq    %rbp, %rbp
        movq    0(%rsi), %rdx
        mulxq   %rdx, %rbx, %rdi
        mulxq   %rbp, %r14, %r9
        addq    %r14, %rdi
        mulxq   0(%rsp), %r14, %r10
        adcq    %r14, %r9
        mulxq   8(%rsp), %r14, %r11
        adcq    %r14, %r10
        mulxq   16(%rsp), %r14, %r12
        adcq    %r14, %r11
        mulxq   24(%rsp), %r14, %r13
        adcq    %r14, %r12
        adcq    $0, %r13
        REDUCE6_ACC %rcx, %r8, %r14, %r15, %rbx, %rdi, %r9, %r10, %r11, %r12, %r13

        /* round 1: t = rdi r9 r10 r11 r12 r13 | rbx; products at limbs 1..5 */
        REDUCE6_FRESH %rcx, %r8, %r14, %r15, %rdi, %r9, %r10, %r11, %r12, %r13, %rbx
        movq    16(%rsi), %rbp
        addq    %rbp, %rbp
        movq    8(%rsi), %rdx
        xorl    %eax, %eax
        SQR6_TERM %rdx, %r9, %r10
        SQR6_TERM %rbp, %r10, %r11
        SQR6_TERM 8(%rsp), %r11, %r12
        SQR6_TERM 16(%rsp), %r12, %r13
        SQR6_TERM 24(%rsp), %r13, %rbx
        adoxq   %rax, %rbx

        /* round 2: t = r9 r10 r11 r12 r13 rbx | rdi; products at limbs 2..5 */
        REDUCE6_FRESH %rcx, %r8, %r14, %r15, %r9, %r10, %r11, %r12, %r13, %rbx, %rdi
        movq    24(%rsi), %rbp
        addq    %rbp, %rbp
        movq    16(%rsi), %rdx
        xorl    %eax, %eax
        SQR6_TERM %rdx, %r11, %r12
        SQR6_TERM %rbp, %r12, %r13
        SQR6_TERM 16(%rsp), %r13, %rbx
        SQR6_TERM 24(%rsp), %rbx, %rdi
        adoxq   %rax, %rdi

        /* round 3: t = r10 r11 r12 r13 rbx rdi | r9; products at limbs 3..5 */
        REDUCE6_FRESH %rcx, %r8, %r14, %r15, %r10, %r11, %r12, %r13, %rbx, %rdi, %r9
        movq    32(%rsi), %rbp
        addq    %rbp, %rbp
        movq    24(%rsi), %rdx
        xorl    %eax, %eax
        SQR6_TERM %rdx, %r13, %rbx
        SQR6_TERM %rbp, %rbx, %rdi
        SQR6_TERM 24(%rsp), %rdi, %r9
        adoxq   %rax, %r9

        /* round 4: t = r11 r12 r13 rbx rdi r9 | r10; products at limbs 4..5 */
        REDUCE6_FRESH %rcx, %r8, %r14, %r15, %r11, %r12, %r13, %rbx, %rdi, %r9, %r10
        movq    40(%rsi), %rbp
        addq    %rbp, %rbp
        movq    32(%rsi), %rdx
        xorl    %eax, %eax
        SQR6_TERM %rdx, %rdi, %r9
        SQR6_TERM %rbp, %r9, %r10
        adoxq   %rax, %r10

        /* round 5: t = r12 r13 rbx rdi r9 r10 | r11; products at limbs 5..5 */
        REDUCE6_FRESH %rcx, %r8, %r14, %r15, %r12, %r13, %rbx, %rdi, %r9, %r10, %r11
        movq    40(%rsi), %rdx
        xorl    %eax, %eax
        SQR6_TERM %rdx, %r10, %r11
        adoxq   %rax, %r11

        /* result in r13 rbx rdi r9 r10 r11 */
        SUB_IF_GEQ6 %rcx, %r13, %rbx, %rdi, %r9, %r10, %r11, %rax, %rdx, %rsi, %rbp, %r8, %r14
        movq    32(%rsp), %rsi
        STORE6  %rsi, %r13, %rbx, %rdi, %r9, %r10, %r11

        addq    $40, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   mont_sqr_6_adx, .-mont_sqr_6_adx

/*
 * void mont_mul_4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
 *                     const uint64_t m[4], uint64_t m_inv_neg)
 * rdi = r, rsi = a, rdx = b (moved to r9), rcx = m, r8 = n0.
 * The accumulator rotates through rbx r10 r11 r12 r13; r14/r15 products.
 */
        .globl  mont_mul_4_adx
        .hidden mont_mul_4_adx
        .type   mont_mul_4_adx, @function
        .p2align 5
mont_mul_4_adx:
        ENTRY_LANDING
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rdx, %r9

        movq    0(%r9), %rdx
        mulxq   0(%rsi), %rbx, %r10
        mulxq   8(%rsi), %r14, %r11
        addq    %r14, %r10
        mulxq   16(%rsi), %r14, %r12
        adcq    %r14, %r11
        mulxq   24(%rsi), %r14, %r13
        adcq    %r14, %r12
        adcq    $0, %r13
        REDUCE4_ACC %rcx, %r8, %r14, %r15, %rbx, %r10, %r11, %r12, %r13

        movq    8(%r9), %rdx
        ROW4_FRESH %rsi, %r14, %r15, %r10, %r11, %r12, %r13, %rbx
        REDUCE4_ACC %rcx, %r8, %r14, %r15, %r10, %r11, %r12, %r13, %rbx

        movq    16(%r9), %rdx
        ROW4_FRESH %rsi, %r14, %r15, %r11, %r12, %r13, %rbx, %r10
        REDUCE4_ACC %rcx, %r8, %r14, %r15, %r11, %r12, %r13, %rbx, %r10

        movq    24(%r9), %rdx
        ROW4_FRESH %rsi, %r14, %r15, %r12, %r13, %rbx, %r10, %r11
        REDUCE4_ACC %rcx, %r8, %r14, %r15, %r12, %r13, %rbx, %r10, %r11

        /* result in r13 rbx r10 r11 */
        SUB_IF_GEQ4 %rcx, %r13, %rbx, %r10, %r11, %rax, %rdx, %rsi, %r9
        STORE4  %rdi, %r13, %rbx, %r10, %r11

        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        ret
        .size   mont_mul_4_adx, .-mont_mul_4_adx

/*
 * void mont_sqr_4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t m[4],
 *                     uint64_t m_inv_neg)
 * rdi = r (saved on the stack), rsi = a, rdx = m (moved to r9), rcx = n0
 * (moved to r8). 6 products a_i a_j, doubled, plus 4 squares give the
 * 8-limb square W0..W7 = r13 rbx rcx rbp r10 r11 r12 r15; four Montgomery
 * steps on W0..W3 then U + W4..W7 < 2m.
 */
        .globl  mont_sqr_4_adx
        .hidden mont_sqr_4_adx
        .type   mont_sqr_4_adx, @function
        .p2align 5
mont_sqr_4_adx:
        ENTRY_LANDING
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        pushq   %rdi
        movq    %rdx, %r9
        movq    %rcx, %r8

        /* products a_i a_j, i < j: w1..w6 = rbx rcx rbp r10 r11 r12 */
        movq    0(%rsi), %rdx
        mulxq   8(%rsi), %rbx, %rcx
        mulxq   16(%rsi), %r14, %rbp
        addq    %r14, %rcx
        mulxq   24(%rsi), %r14, %r10
        adcq    %r14, %rbp
        adcq    $0, %r10

        movq    8(%rsi), %rdx
        xorl    %eax, %eax
        mulxq   16(%rsi), %r14, %r15
        adoxq   %r14, %rbp
        adcxq   %r15, %r10
        mulxq   24(%rsi), %r14, %r11
        adoxq   %r14, %r10
        adcxq   %rax, %r11
        adoxq   %rax, %r11

        movq    16(%rsi), %rdx
        mulxq   24(%rsi), %r14, %r12
        addq    %r14, %r11
        adcq    $0, %r12

        /* doubling on the OF chain, squares on the CF chain */
        xorl    %eax, %eax
        movq    0(%rsi), %rdx
        mulxq   %rdx, %r13, %r15
        adoxq   %rbx, %rbx
        adcxq   %r15, %rbx
        movq    8(%rsi), %rdx
        mulxq   %rdx, %r14, %r15
        adoxq   %rcx, %rcx
        adcxq   %r14, %rcx
        adoxq   %rbp, %rbp
        adcxq   %r15, %rbp
        movq    16(%rsi), %rdx
        mulxq   %rdx, %r14, %r15
        adoxq   %r10, %r10
        adcxq   %r14, %r10
        adoxq   %r11, %r11
        adcxq   %r15, %r11
        movq    24(%rsi), %rdx
        mulxq   %rdx, %r14, %r15
        adoxq   %r12, %r12
        adcxq   %r14, %r12
        adoxq   %rax, %r15
        adcxq   %rax, %r15

        /* reduce W0..W3 (r13 rbx rcx rbp, rdi rotating in); products in r14/rsi */
        REDUCE4_FRESH %r9, %r8, %r14, %rsi, %r13, %rbx, %rcx, %rbp, %rdi
        REDUCE4_FRESH %r9, %r8, %r14, %rsi, %rbx, %rcx, %rbp, %rdi, %r13
        REDUCE4_FRESH %r9, %r8, %r14, %rsi, %rcx, %rbp, %rdi, %r13, %rbx
        REDUCE4_FRESH %r9, %r8, %r14, %rsi, %rbp, %rdi, %r13, %rbx, %rcx

        /* U in rdi r13 rbx rcx; add the high half */
        addq    %r10, %rdi
        adcq    %r11, %r13
        adcq    %r12, %rbx
        adcq    %r15, %rcx
        SUB_IF_GEQ4 %r9, %rdi, %r13, %rbx, %rcx, %rax, %rdx, %r14, %rsi
        popq    %r8
        STORE4  %r8, %rdi, %r13, %rbx, %rcx

        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   mont_sqr_4_adx, .-mont_sqr_4_adx

/*
 * Modular addition and subtraction, r = a + b mod m and r = a - b mod m,
 * for a, b < m < 2^(64n - 1) (so a + b cannot carry out of n limbs). These
 * need only baseline x86-64 (adc, sbb, cmov) but follow the same run-time
 * switch as the multiplications, so that the portable path stays testable.
 *
 * void mont_add_6_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t m[6])
 * void mont_sub_6_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t m[6])
 * void mont_add_4_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
 * void mont_sub_4_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
 * rdi = r, rsi = a, rdx = b, rcx = m.
 */
        .globl  mont_add_6_x86
        .hidden mont_add_6_x86
        .type   mont_add_6_x86, @function
        .p2align 5
mont_add_6_x86:
        ENTRY_LANDING
        pushq   %rbx
        pushq   %rbp
        pushq   %r12
        pushq   %r13
        pushq   %r14
        movq    0(%rsi), %r8
        movq    8(%rsi), %r9
        movq    16(%rsi), %r10
        movq    24(%rsi), %r11
        movq    32(%rsi), %rax
        movq    40(%rsi), %rsi
        addq    0(%rdx), %r8
        adcq    8(%rdx), %r9
        adcq    16(%rdx), %r10
        adcq    24(%rdx), %r11
        adcq    32(%rdx), %rax
        adcq    40(%rdx), %rsi
        SUB_IF_GEQ6 %rcx, %r8, %r9, %r10, %r11, %rax, %rsi, %rdx, %rbx, %rbp, %r12, %r13, %r14
        STORE6  %rdi, %r8, %r9, %r10, %r11, %rax, %rsi
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbp
        popq    %rbx
        ret
        .size   mont_add_6_x86, .-mont_add_6_x86

/* a - b, then m added back when that borrowed (cmov of m or 0 keeps the flags) */
        .globl  mont_sub_6_x86
        .hidden mont_sub_6_x86
        .type   mont_sub_6_x86, @function
        .p2align 5
mont_sub_6_x86:
        ENTRY_LANDING
        pushq   %rbx
        pushq   %rbp
        pushq   %r12
        pushq   %r13
        pushq   %r14
        movq    0(%rsi), %r8
        movq    8(%rsi), %r9
        movq    16(%rsi), %r10
        movq    24(%rsi), %r11
        movq    32(%rsi), %rax
        movq    40(%rsi), %rsi
        subq    0(%rdx), %r8
        sbbq    8(%rdx), %r9
        sbbq    16(%rdx), %r10
        sbbq    24(%rdx), %r11
        sbbq    32(%rdx), %rax
        sbbq    40(%rdx), %rsi
        movl    $0, %edx
        movl    $0, %ebx
        movl    $0, %ebp
        movl    $0, %r12d
        movl    $0, %r13d
        movl    $0, %r14d
        cmovcq  0(%rcx), %rdx
        cmovcq  8(%rcx), %rbx
        cmovcq  16(%rcx), %rbp
        cmovcq  24(%rcx), %r12
        cmovcq  32(%rcx), %r13
        cmovcq  40(%rcx), %r14
        addq    %rdx, %r8
        adcq    %rbx, %r9
        adcq    %rbp, %r10
        adcq    %r12, %r11
        adcq    %r13, %rax
        adcq    %r14, %rsi
        STORE6  %rdi, %r8, %r9, %r10, %r11, %rax, %rsi
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbp
        popq    %rbx
        ret
        .size   mont_sub_6_x86, .-mont_sub_6_x86

        .globl  mont_add_4_x86
        .hidden mont_add_4_x86
        .type   mont_add_4_x86, @function
        .p2align 5
mont_add_4_x86:
        ENTRY_LANDING
        pushq   %rbx
        movq    0(%rsi), %r8
        movq    8(%rsi), %r9
        movq    16(%rsi), %r10
        movq    24(%rsi), %r11
        addq    0(%rdx), %r8
        adcq    8(%rdx), %r9
        adcq    16(%rdx), %r10
        adcq    24(%rdx), %r11
        SUB_IF_GEQ4 %rcx, %r8, %r9, %r10, %r11, %rax, %rdx, %rsi, %rbx
        STORE4  %rdi, %r8, %r9, %r10, %r11
        popq    %rbx
        ret
        .size   mont_add_4_x86, .-mont_add_4_x86

        .globl  mont_sub_4_x86
        .hidden mont_sub_4_x86
        .type   mont_sub_4_x86, @function
        .p2align 5
mont_sub_4_x86:
        ENTRY_LANDING
        pushq   %rbx
        movq    0(%rsi), %r8
        movq    8(%rsi), %r9
        movq    16(%rsi), %r10
        movq    24(%rsi), %r11
        subq    0(%rdx), %r8
        sbbq    8(%rdx), %r9
        sbbq    16(%rdx), %r10
        sbbq    24(%rdx), %r11
        movl    $0, %eax
        movl    $0, %edx
        movl    $0, %esi
        movl    $0, %ebx
        cmovcq  0(%rcx), %rax
        cmovcq  8(%rcx), %rdx
        cmovcq  16(%rcx), %rsi
        cmovcq  24(%rcx), %rbx
        addq    %rax, %r8
        adcq    %rdx, %r9
        adcq    %rsi, %r10
        adcq    %rbx, %r11
        STORE4  %rdi, %r8, %r9, %r10, %r11
        popq    %rbx
        ret
        .size   mont_sub_4_x86, .-mont_sub_4_x86

#endif /* __x86_64__ && __ELF__ */

#if defined(__ELF__)
        .section .note.GNU-stack, "", @progbits
#endif
