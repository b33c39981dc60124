from tests.core.toygame import register_toy

register_toy()
