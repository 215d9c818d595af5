"""The kernel's random numbers: splitmix64 seeding, xorshift128+, `below`."""

from __future__ import annotations

from collections import Counter

import pytest

from boardrules.runtime import kernel

M64 = (1 << 64) - 1


# An independent reference: splitmix64 (Vigna) and xorshift128+ with shifts 23/17/26.
def ref_splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) % (1 << 64)
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
    return state, z ^ (z >> 31)


class RefXorshift128Plus:
    def __init__(self, seed: int):
        state, a = ref_splitmix64(seed % (1 << 64))
        _, b = ref_splitmix64(state)
        self.s = [a, b | 1]

    def next(self) -> int:
        s1, s0 = self.s[0], self.s[1]
        self.s[0] = s0
        s1 = (s1 ^ (s1 << 23)) % (1 << 64)
        self.s[1] = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26)
        return (self.s[1] + s0) % (1 << 64)


SEEDS = [0, 1, 2, 42, 0x5DEECE66D, 2**32 - 1, 2**63, 2**64 - 1]


def test_splitmix64_known_values():
    """The published splitmix64 outputs for seed 0."""
    gamma = 0x9E3779B97F4A7C15
    outputs = [kernel.splitmix64((k * gamma) % (1 << 64)) for k in range(4)]
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                       0x06C45D188009454F, 0xF88BB8A8724C81EC]


@pytest.mark.parametrize("seed", SEEDS)
def test_stream_matches_the_reference(seed):
    rng, ref = kernel.Rng(seed), RefXorshift128Plus(seed)
    assert [rng.next_u64() for _ in range(1000)] == [ref.next() for _ in range(1000)]


def test_same_seed_same_stream_different_seed_different_stream():
    a, b, c = kernel.Rng(123), kernel.Rng(123), kernel.Rng(124)
    first = [a.next_u64() for _ in range(50)]
    assert first == [b.next_u64() for _ in range(50)]
    assert first != [c.next_u64() for _ in range(50)]


def test_values_stay_within_64_bits():
    rng = kernel.Rng(2**64 - 1)
    values = [rng.next_u64() for _ in range(20000)]
    assert all(0 <= v <= M64 for v in values)
    assert 0 <= rng.s0 <= M64 and 0 <= rng.s1 <= M64
    assert max(values) > 2**63  # the high bit is used, not masked away
    assert len(set(values)) == len(values)


@pytest.mark.parametrize("seed, same_as", [(2**64 + 5, 5), (-1, 2**64 - 1), (2**70, 0)])
def test_seed_is_masked_to_64_bits(seed, same_as):
    a, b = kernel.Rng(seed), kernel.Rng(same_as)
    assert [a.next_u64() for _ in range(10)] == [b.next_u64() for _ in range(10)]


def test_state_is_never_all_zero():
    for seed in SEEDS:
        rng = kernel.Rng(seed)
        assert rng.s1 & 1 == 1


def test_copy_continues_identically_and_independently():
    rng = kernel.Rng(99)
    for _ in range(17):
        rng.next_u64()
    twin = rng.copy()
    assert [rng.next_u64() for _ in range(100)] == [twin.next_u64() for _ in range(100)]
    twin.next_u64()
    assert rng.next_u64() != twin.next_u64()


# ---- below ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 36, 1000, 2**31 - 1, 2**32, 2**32 + 1,
                               2**47 + 3, 2**63 - 1])
def test_below_is_the_high_half_of_the_draw_times_n(n):
    """Lemire's multiply-shift: floor(x * n / 2**64) of the whole 64-bit draw x."""
    rng, ref = kernel.Rng(n), RefXorshift128Plus(n)
    for _ in range(2000):
        value = rng.below(n)
        assert 0 <= value < n
        assert value == (ref.next() * n) >> 64


@pytest.mark.parametrize("x", [0, 1, 2**32 - 1, 2**32, 2**63, M64 - 2**32 + 1, M64])
@pytest.mark.parametrize("n", [1, 6, 2**31, 2**32 - 1, 2**32])
def test_high_product_is_exact_at_the_edges(x, n):
    """The two-product form cannot wrap for any 64-bit draw and n up to 2**32, and the
    four-product form agrees with it and holds for any 64-bit n."""
    assert kernel.high_product(x, n) == (x * n) >> 64
    assert kernel.wide_high_product(x, n) == (x * n) >> 64
    assert kernel.wide_high_product(x, M64 - n + 1) == (x * (M64 - n + 1)) >> 64


def test_below_one_is_always_zero():
    rng = kernel.Rng(5)
    assert {rng.below(1) for _ in range(100)} == {0}


@pytest.mark.parametrize("n", [2, 6, 11])
def test_below_is_roughly_uniform(n):
    rng = kernel.Rng(2024)
    draws = 6000 * n
    counts = Counter(rng.below(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    # 99.9th percentile of chi-square with n-1 degrees of freedom is below 32 for n <= 11
    assert chi2 < 32, counts
    assert all(abs(counts[k] - expected) < 0.05 * expected for k in range(n))


def test_consecutive_values_are_not_correlated():
    rng = kernel.Rng(77)
    pairs = Counter((rng.below(6), rng.below(6)) for _ in range(36000))
    assert len(pairs) == 36
    assert max(pairs.values()) < 1.2 * 1000 and min(pairs.values()) > 0.8 * 1000


# ---- the compiled backend gives the very same stream --------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_compiled_rng_matches_the_reference(disney_compiled, seed):
    compiled, ref = disney_compiled.Rng(seed), RefXorshift128Plus(seed)
    assert [compiled.next_u64() for _ in range(500)] == [ref.next() for _ in range(500)]
    compiled, python = disney_compiled.Rng(seed), kernel.Rng(seed)
    for n in (1, 6, 1000, 2**31 - 1, 2**32, 2**32 + 1, 2**63 - 1):
        assert [compiled.below(n) for _ in range(200)] == [python.below(n) for _ in range(200)]
