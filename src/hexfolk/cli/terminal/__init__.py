"""The terminal table of ``hexfolk play``: what a person sees and types, one concept per file.

* :mod:`.screen` — the terminal's size and the rule that no line is wider than it;
* :mod:`.words` — card bundles, seats and log lines as sentences;
* :mod:`.island_view`, :mod:`.scythe_view`, :mod:`.scythe_map` — each game's compact
  decision view and its full board / mats on request;
* :mod:`.menu` — the numbered menu of legal actions that fits the rows left;
* :mod:`.decision` — a decision screen put together within the terminal's rows;
* :mod:`.cards` — the ``help`` texts: short help, the costs card, a card's name;
* :mod:`.offers` — island offers shown to a person without stopping the game;
* :mod:`.line_input` — line editing and history (readline) and the timed offer window;
* :mod:`.handover` — the hot-seat screen between two people.

Everything is drawn from ``observation(seat)`` and the game's public methods only.
"""
