"""Stand or fall: an exact judge for towers of rigid blocks, with a tilt-table stability margin.

>>> from kumiki.physics import analyse
>>> analyse({"bodies": [{"boxes": [[0, 0, 0, 1, 1, 1]]}]}).stands
True
"""

from kumiki.physics.model import Body, Tower, TowerError, body_from_cells, tower_from_json
from kumiki.physics.statics import Verdict, analyse, judge

__all__ = ["Body", "Tower", "TowerError", "Verdict", "analyse", "body_from_cells", "judge", "tower_from_json"]
