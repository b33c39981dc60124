"""The browser client: plain ES modules, SVG and CSS served by the table server (no build step).

``WEB_DIR`` is the folder the server mounts at ``/app`` (``docs/web.md``).
"""

from pathlib import Path

WEB_DIR = Path(__file__).parent
"""The folder holding ``index.html``, the modules, the style sheet and the text files."""
