"""Text and JSON views of a solved position (``bidlab solve``).

May import: :mod:`.solver` and :mod:`.text`.
"""

from __future__ import annotations

from .solver import SEAT_NAMES, Solution
from .text import render_table


def _who(sol: Solution) -> str:
    if sol.seat_alone:
        return f"{SEAT_NAMES[sol.side]} alone (paranoid: the other three play against it)"
    return "N-S" if sol.side % 2 == 0 else "E-W"


def render_solution(sol: Solution, hands_text: str, leader: int, played: str,
                    source: dict | None = None) -> str:
    """The position, its value and every legal card's; ``source`` (deal, seed, policy) says
    which simulated deal's start of play it is, where it is one (``--from-deal``)."""
    lines = [
        f"bidlab solve  {sol.game}"
        + (f"  contract {sol.contract}" if sol.contract else "")
        + f"  trump {sol.trump or 'none'}",
        *([f"deal {source['deal']:,} of seed {source['seed']} (policy {source['policy']}): "
           "its start of play, as `bidlab deal` shows it"] if source else []),
        f"hands N/E/S/W: {hands_text}",
        f"leader {SEAT_NAMES[leader]}" + (f", played: {played}" if played.strip() else ""),
        "double dummy: every seat sees every card and plays perfectly",
        "",
    ]
    if sol.to_move < 0:
        lines.append(f"no cards left; value {sol.value}")
        return "\n".join(lines)
    what = "contract points" if sol.seat_alone else "points"
    lines.append(f"value for {_who(sol)}: {sol.value} {what} in the remaining tricks")
    lines.append(f"{SEAT_NAMES[sol.to_move]} to move; value after each legal card:")
    best = set(sol.best_cards())
    mover_max = sol._same_side(sol.to_move)
    order = sorted(sol.card_values.items(), key=lambda kv: -kv[1] if mover_max else kv[1])
    rows = [[card, v, "best" if card in best else ""] for card, v in order]
    lines.append(render_table(["card", "value", ""], rows))
    lines.append(f"{sol.nodes:,} nodes, {sol.seconds * 1000:.1f} ms")
    return "\n".join(lines)


def solution_dict(sol: Solution) -> dict:
    return {"game": sol.game, "contract": sol.contract, "trump": sol.trump,
            "to_move": SEAT_NAMES[sol.to_move] if sol.to_move >= 0 else None,
            "side": SEAT_NAMES[sol.side], "value": sol.value, "card_values": sol.card_values,
            "best": sol.best_cards(), "nodes": sol.nodes, "seconds": sol.seconds}
