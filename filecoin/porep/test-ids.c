/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/porep/ids: the prover id of t01000 (lotus-bench's 2 KiB example:
 * e8 07 then 30 zero bytes), miner parsing, and the replica id against a
 * SHA-256 of the message laid out by hand here (no published replica_id
 * vector exists; the 2 KiB sealing oracle covers it end to end).
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <string.h>

#include "common/hex.h"
#include "filecoin/porep/ids.h"

static void test_prover_id_t01000(void **state) {
        uint8_t expected[32], got[32];
        (void)state;

        assert_int_equal(
                hex_decode("e807000000000000000000000000000000000000000000000000000000000000", 32,
                           expected, NULL),
                0);
        assert_int_equal(porep_prover_id_from_miner(1000, got), 2);
        assert_memory_equal(got, expected, 32);
        /* One bit more in the actor id: another prover id. */
        assert_int_equal(porep_prover_id_from_miner(1001, got), 2);
        assert_memory_not_equal(got, expected, 32);
}

/* Unsigned LEB128 at the edges of its 7-bit groups. */
static void test_prover_id_varint(void **state) {
        uint8_t got[32];
        (void)state;

        assert_int_equal(porep_prover_id_from_miner(0, got), 1);
        assert_int_equal(got[0], 0);
        assert_int_equal(porep_prover_id_from_miner(127, got), 1);
        assert_int_equal(got[0], 0x7f);
        assert_int_equal(porep_prover_id_from_miner(128, got), 2);
        assert_memory_equal(got, "\x80\x01\x00", 3);
        assert_int_equal(porep_prover_id_from_miner(UINT64_MAX, got), 10);
        for (unsigned i = 0; i < 9; i++)
                assert_int_equal(got[i], 0xff);
        assert_int_equal(got[9], 0x01);
        for (unsigned i = 10; i < 32; i++)
                assert_int_equal(got[i], 0);
}

static void test_parse_miner(void **state) {
        uint64_t id = 0;
        (void)state;

        assert_int_equal(porep_parse_miner("t01000", &id), 0);
        assert_int_equal(id, 1000);
        id = 0;
        assert_int_equal(porep_parse_miner("f01000", &id), 0);
        assert_int_equal(id, 1000);
        id = 0;
        assert_int_equal(porep_parse_miner("1000", &id), 0);
        assert_int_equal(id, 1000);
        assert_int_equal(porep_parse_miner("f00", &id), 0);
        assert_int_equal(id, 0);
        assert_int_equal(porep_parse_miner("18446744073709551615", &id), 0);
        assert_int_equal(id, UINT64_MAX);

        assert_int_equal(porep_parse_miner("18446744073709551616", &id), -ERANGE);
        assert_int_equal(porep_parse_miner("", &id), -EINVAL);
        assert_int_equal(porep_parse_miner("t0", &id), -EINVAL);
        assert_int_equal(porep_parse_miner("t1abc", &id), -EINVAL); /* secp256k1 address */
        assert_int_equal(porep_parse_miner("t01000x", &id), -EINVAL);
        assert_int_equal(porep_parse_miner("f0-1", &id), -EINVAL);
        assert_int_equal(porep_parse_miner(" 1000", &id), -EINVAL);
        assert_int_equal(porep_parse_miner("+1000", &id), -EINVAL);
        assert_int_equal(porep_parse_miner("x01000", &id), -EINVAL);
}

static void fill(uint8_t *p, size_t n, uint8_t start) {
        for (size_t i = 0; i < n; i++)
                p[i] = (uint8_t)(start + 3 * i);
}

static void test_replica_id(void **state) {
        uint8_t prover_id[32], ticket[32], comm_d[32], porep_id[32], message[136];
        uint8_t expected[32], got[32];
        const uint64_t sector_id = 0x0102030405060708ull;
        unsigned len = 0;
        (void)state;

        fill(prover_id, 32, 1);
        fill(ticket, 32, 2);
        fill(comm_d, 32, 3);
        fill(porep_id, 32, 4);
        /* params.rs generate_replica_id: the sector id big-endian, in the middle. */
        memcpy(message, prover_id, 32);
        memcpy(message + 32, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
        memcpy(message + 40, ticket, 32);
        memcpy(message + 72, comm_d, 32);
        memcpy(message + 104, porep_id, 32);
        assert_int_equal(EVP_Digest(message, sizeof(message), expected, &len, EVP_sha256(), NULL),
                         1);
        expected[31] &= 0x3f;

        porep_replica_id(prover_id, sector_id, ticket, comm_d, porep_id, got);
        assert_memory_equal(got, expected, 32);
        assert_int_equal(got[31] & 0xc0, 0);

        /* One bit of any input changes it. */
        porep_replica_id(prover_id, sector_id ^ 1, ticket, comm_d, porep_id, got);
        assert_memory_not_equal(got, expected, 32);
        ticket[31] ^= 0x80;
        porep_replica_id(prover_id, sector_id, ticket, comm_d, porep_id, got);
        assert_memory_not_equal(got, expected, 32);
        ticket[31] ^= 0x80;
        porep_id[0] ^= 1;
        porep_replica_id(prover_id, sector_id, ticket, comm_d, porep_id, got);
        assert_memory_not_equal(got, expected, 32);
        porep_id[0] ^= 1;
        prover_id[5] ^= 4;
        porep_replica_id(prover_id, sector_id, ticket, comm_d, porep_id, got);
        assert_memory_not_equal(got, expected, 32);
        prover_id[5] ^= 4;
        comm_d[9] ^= 2;
        porep_replica_id(prover_id, sector_id, ticket, comm_d, porep_id, got);
        assert_memory_not_equal(got, expected, 32);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_prover_id_t01000),
                cmocka_unit_test(test_prover_id_varint),
                cmocka_unit_test(test_parse_miner),
                cmocka_unit_test(test_replica_id),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
