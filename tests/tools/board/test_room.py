"""What fits on a board's file system (attila_tools.board.room): the room left is
counted as the board will count it. No board needed."""

import os

from attila.saves.archive import ROOM_BLOCKS

from attila_tools.board import build, room

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
LAYOUT = os.path.join(ROOT, "boards", "4x5.json")
PROFILE = os.path.join(ROOT, "boards", "profiles", "picow.json")
PICO_W = (4096, 212)  # 848 KB of littlefs


def _with_table(plan, tmp_path, blocks):
    """`plan` with an opening table of `blocks` blocks' bytes (less its pointers)."""
    path = tmp_path / ("table-%d.opening" % blocks)
    path.write_bytes(b"t" * (blocks * 4000))
    return dict(plan, **{build.OPENING_FILE: str(path)})


def test_a_table_is_left_out_unless_the_board_counts_room_for_the_saves_and_some_games(tmp_path):
    plan = build.plan(LAYOUT, PROFILE)
    plan.pop(build.OPENING_FILE, None)
    size, count = PICO_W
    free = count - room.used_blocks(plan, size, count)
    # The board counts each folder's metadata pair twice (its statvfs), its own
    # three folders too: what it must see free is more than SPARE_BLOCKS.
    spare = room.spare_blocks(plan)
    folders = len(room.folders(plan)) + room.FIRMWARE_FOLDERS
    assert spare == room.SPARE_BLOCKS + 2 * folders and room.SPARE_BLOCKS > ROOM_BLOCKS
    # A table that leaves more than SPARE_BLOCKS but less than that is left out.
    tight = _with_table(plan, tmp_path, free - spare + 6)
    left = count - room.used_blocks(tight, size, count)
    assert room.SPARE_BLOCKS < left < spare, (left, spare)
    files, note = room.fit(tight, PICO_W)
    assert build.OPENING_FILE not in files and files == plan
    assert note.startswith("layout.opening (") and "left out" in note
    # One that leaves that much stays.
    roomy = _with_table(plan, tmp_path, free - spare - 4)
    assert count - room.used_blocks(roomy, size, count) >= spare
    assert room.fit(roomy, PICO_W) == (roomy, "")
