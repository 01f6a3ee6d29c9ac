"""bench/runtime_bench.py's Python side: the sides it compares take turns in ten slices of the
budget after each is warmed up, so a load that comes and goes on a shared machine falls on all of
them alike (timed one side after the other, the same build measured 0.78x to 2.9x).

Nothing here is timed: a simulated clock moves only when a side handles a payload, by that side's
cost times the machine's load at that moment."""

from __future__ import annotations

from itertools import groupby
from typing import Callable

import pytest

from bench.runtime_bench import SLICES, _rates


class Machine:
    """A clock, and sides whose every payload advances it by their cost (tripled while loaded)."""

    def __init__(self, loaded_from: float = float("inf")) -> None:
        self.now = 0.0
        self.loaded_from = loaded_from
        self.calls: list[tuple[int, int]] = []  # (side, payload number), in order

    def clock(self) -> float:
        return self.now

    def side(self, k: int, cost: float) -> Callable[[int], bool]:
        def one(i: int) -> bool:
            self.calls.append((k, i))
            self.now += cost * (3 if self.now >= self.loaded_from else 1)
            return True
        return one


def test_each_side_is_warmed_up_then_they_alternate_in_ten_slices() -> None:
    m = Machine()
    _rates([m.side(0, 1), m.side(1, 1)], [1, 1], 7, 40, clock=m.clock)
    turns = [k for k, _ in groupby(k for k, _ in m.calls)]
    assert turns == [0, 1] * (1 + SLICES)  # a warm-up each, then the slices; not [0, 1]


def test_each_side_goes_on_round_the_corpus_where_it_stopped() -> None:
    m = Machine()
    _rates([m.side(0, 1), m.side(1, 1)], [1, 1], 7, 40, clock=m.clock)
    for k in (0, 1):
        seen = [i for side, i in m.calls if side == k]
        warm_up = 10  # a quarter of the 40 s budget, 1 s a payload
        assert seen[:warm_up] == [j % 7 for j in range(warm_up)]
        timed = seen[warm_up:]
        assert timed == [j % 7 for j in range(len(timed))] and len(timed) == 40


def test_rates_are_each_sides_payloads_over_its_own_time_and_share() -> None:
    m = Machine()
    rates = _rates([m.side(0, 1), m.side(1, 2), m.side(2, 0.5)], [1, 1, 0.5], 5, 40, clock=m.clock)
    assert rates == [1.0, 0.5, 2.0]
    counts = {k: sum(1 for side, _ in m.calls if side == k) for k in range(3)}
    assert counts == {0: 10 + 40, 1: 5 + 20, 2: 10 + 40}  # warm-up + timed; the third side has half the budget


@pytest.mark.parametrize("loaded_from", [50.0, 63.0, 87.5])
def test_a_load_arriving_mid_run_falls_on_both_sides(loaded_from: float) -> None:
    # Two sides of the same cost: timed one after the other, the load would fall on the second
    # side only (1.0 against 0.33 payloads a second, a 3x ratio); in turns both see it.
    m = Machine(loaded_from)
    sdk, peer = _rates([m.side(0, 1), m.side(1, 1)], [1, 1], 7, 40, clock=m.clock)
    assert sdk < 1 and peer < 1  # the load was measured, on both
    assert sdk / peer == pytest.approx(1, rel=0.15)
