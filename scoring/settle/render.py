"""The settlement as a player reads it: each payment, then the who-pays-whom table with nets."""

from __future__ import annotations

from scoring.settle.model import SEAT_NAMES, Settlement


def _player_label(settlement: Settlement, name: str) -> str:
    p = settlement.table.player(name)
    if p.seat is None:
        return f"{name} sits out"
    bits = [f"{name} ({SEAT_NAMES[p.seat]})" if name != SEAT_NAMES[p.seat] else name, str(p.score)]
    if p.winner:
        bits.append("won")
    if p.dead:
        bits.append("dead hand")
    return " ".join(bits)


def render_grid(settlement: Settlement) -> str:
    """The who-pays-whom table: row pays column; the last column is each player's net."""
    names = settlement.names
    grid = settlement.grid()
    nets = settlement.nets()
    width = max(6, *(len(n) for n in names), *(len(str(c)) for row in grid for c in row))
    head = " " * width + "".join(f"  {n:>{width}}" for n in names) + f"  {'net':>{width}}"
    rows = [head]
    for i, name in enumerate(names):
        cells = "".join(f"  {'-' if i == j else grid[i][j]:>{width}}" for j in range(len(names)))
        net = f"{nets[name]:+d}" if nets[name] else "0"
        rows.append(f"{name:<{width}}{cells}  {net:>{width}}")
    return "\n".join(rows)


def render(settlement: Settlement) -> str:
    """Scores, payments with their reasons and citations, notes, then the table."""
    table = settlement.table
    limit = "no limit" if table.limit is None else f"limit {table.limit} (East {table.east_cap})"
    out = [f"{table.book}, {table.game.value} game, {limit}"]
    if table.source:
        out.append(f"source: {table.source}")
    out.append("scores: " + "; ".join(_player_label(settlement, n) for n in settlement.names))
    if table.incident is not None:
        out.append(f"incident: {table.incident.kind.value}")
    for player in table.players:  # each hand the table gave, winner's and losers' alike, read down to its score
        if player.detail is not None:
            out.append(f"{player.name}'s hand, " + player.detail.explain().replace("\n", "\n  "))
    out.append("payments:")
    out += [f"  {p.payer} pays {p.payee} {p.amount}: {p.reason}  [{p.citation}]" for p in settlement.payments]
    if not settlement.payments:
        out.append("  none")
    out += [f"note: {n}" for n in settlement.notes]
    out.append("who pays whom (row pays column):")
    out.append(render_grid(settlement))
    return "\n".join(out)
