"""Readable text of a Scythe observation (terminal play, golden playthroughs)."""

from __future__ import annotations

from typing import Any


def render(obs: dict[str, Any]) -> str:
    """A compact multi-line text of ``obs`` (a ScytheState observation)."""
    lines = [
        f"turn {obs['turn']} seat-view {obs['seat']} active P{obs['active']} "
        f"phase {obs['phase']} tile {obs['tile']}"
    ]
    for pl in obs["player_state"]:
        if "power" not in pl:
            lines.append(f"  P{pl['seat']} {pl['faction']} {pl['mat']}")
            continue
        extra = ""
        if "hand" in pl:
            extra = f" hand={pl['hand']} obj={pl['objective_cards']}"
        lines.append(
            f"  P{pl['seat']} {pl['faction']}/{pl['mat']} pow {pl['power']} pop "
            f"{pl['popularity']} ${pl['coins']} stars {pl['star_total']} cards "
            f"{pl['combat_cards']} workers {pl['workers_out']} mechs {pl['mechs']} "
            f"up {len(pl['upgrades'])} rec {pl['recruits']} str {sorted(pl['structures'])}"
            f"{extra}"
        )
    tokens = sorted(n for n, e in obs["board"].items() if e.get("encounter_token"))
    lines.append(f"  encounter tokens: {' '.join(tokens)}")
    for name, entry in sorted(obs["board"].items()):
        if set(entry) <= {"encounter_token", "controller"}:
            continue
        parts = []
        for seat, u in sorted(entry.get("units", {}).items()):
            parts.append(f"P{seat}:" + "C" * u["character"] + "M" * u["mechs"] + "w" * u["workers"])
        if "resources" in entry:
            parts.append(",".join(f"{k}{v}" for k, v in sorted(entry["resources"].items())))
        if "structure" in entry:
            s = entry["structure"]
            parts.append(f"[{s['kind']} P{s['seat']}]")
        if entry.get("encounter_token"):
            parts.append("?")
        lines.append(f"  {name}: {' '.join(parts)}")
    if obs.get("combat"):
        lines.append(f"  combat: {obs['combat']}")
    if obs.get("prompt"):
        pr = obs["prompt"]
        lines.append(f"  prompt P{pr['seat']}: {pr['text']}")
    for entry in obs["log"][-4:]:
        lines.append(f"  | {entry}")
    return "\n".join(lines)
