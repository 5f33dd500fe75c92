"""A close-up of a few tiles is read as the whole photo reads them: the photo is looked at the scale its tiles ask for.

The detector finds tiles about 16-48 px on their short side at the look it reads. Cut from the committed sample as a
12 MP phone takes it, four tiles filling the frame are about a quarter of its width each: at the base look 80-90 px,
where the old scale choice (sized from whatever it boxed there: their pips and strokes) found none of them. Two or one
filling it, a 7 of dots' pips are boxed at the base and wide looks alike (and were taken for the tiles), and one or two
faces' strokes were read as a slant of 27-42 degrees.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from pungchow_data.distractors import draw_scene
from pungchow_data.faces import SHARED_DIR, missing_fonts
from recognizer.detect import clumps_dropped, framed, iou_matrix, looks, seen_alike
from recognizer.detections import Detections
from recognizer.image import load_photo
from recognizer.level import level
from recognizer.pipeline import recognize

SAMPLE = Path(__file__).resolve().parent.parent / "recognizer" / "samples" / "finished-hand.jpg"
LEO_059 = Path(__file__).resolve().parent / "fixtures" / "photos" / "leo-059.jpg"
LEO_010 = Path(__file__).resolve().parent / "fixtures" / "photos" / "closeup-leo-010.jpg"
HK_SET05 = SHARED_DIR / "realdev" / "hk-sets" / "photos" / "set05-1.jpg"


@pytest.fixture(scope="module")
def phone_photo() -> np.ndarray:
    """The sample hand at a 12 MP phone's size."""
    return cv2.resize(load_photo(SAMPLE), None, fx=4.5, fy=4.5, interpolation=cv2.INTER_CUBIC)


@pytest.fixture(scope="module")
def hand_row(phone_photo: np.ndarray) -> Detections:
    """The whole photo's longest row of tiles, left to right: the truth each close-up is read against."""
    row = row_of(phone_photo)
    assert len(row) >= 8
    return row


def row_of(photo: np.ndarray) -> Detections:
    """A photo's longest row of tiles as it reads them, left to right."""
    whole = recognize(photo).detections
    same_row = np.abs(whole.centres[:, 1][:, None] - whole.centres[:, 1][None]) < 0.3 * np.median(whole.boxes[:, 3])
    row = whole[same_row[same_row.sum(axis=1).argmax()]]
    return row[np.argsort(row.centres[:, 0])]


def read_close_up(phone_photo: np.ndarray, tiles: Detections, upright: bool = False) -> list[set[str]]:
    """The codes read on each of ``tiles`` in a 4:3 frame (3:4 with the phone held ``upright``; taller, for one tile)
    they fill 90 % of the width of."""
    x1, x2 = tiles.boxes[:, 0].min(), (tiles.boxes[:, 0] + tiles.boxes[:, 2]).max()
    y1, y2 = tiles.boxes[:, 1].min(), (tiles.boxes[:, 1] + tiles.boxes[:, 3]).max()
    width = (x2 - x1) / 0.9
    height = max((4 / 3 if upright else 0.75) * width, (y2 - y1) / 0.9)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    left, top = int(max(0, cx - width / 2)), int(max(0, cy - height / 2))
    frame = np.ascontiguousarray(phone_photo[top:int(cy + height / 2), left:int(cx + width / 2)])
    read = recognize(frame).detections
    truth = tiles.boxes - np.array([left, top, 0, 0], np.float32)
    iou = iou_matrix(read.boxes, truth) if len(read) else np.zeros((0, len(truth)))
    return [{read.code(i) for i in range(len(read)) if iou[i, j] >= 0.5} for j in range(len(truth))]


def test_four_tiles_filling_the_frame_read_as_in_the_whole_photo(phone_photo: np.ndarray, hand_row: Detections) -> None:
    for start in (0, 4):
        tiles = hand_row[start:start + 4]
        assert read_close_up(phone_photo, tiles) == [{tiles.code(j)} for j in range(len(tiles))], start


def test_two_tiles_filling_the_frame_read_as_in_the_whole_photo(phone_photo: np.ndarray, hand_row: Detections) -> None:
    """Two sevens of dots among them: the old looks boxed their pips as the tiles (a face-down tile, 1B and 1S beside)."""
    for start in (0, 2, 4, 6):
        tiles = hand_row[start:start + 2]
        assert read_close_up(phone_photo, tiles) == [{tiles.code(j)} for j in range(len(tiles))], start


#: One tile filling the frame: a face-down tile alone, the detector barely sure of it, may go unread.
ONE_TILE_READ = 6


def test_one_tile_filling_the_frame_reads_as_in_the_whole_photo(phone_photo: np.ndarray, hand_row: Detections) -> None:
    """Each of the row's eight tiles alone in the frame. The old reader read 3 of 8: a 7 of dots' pips taken for the
    tiles, a bamboo bird's strokes read as a 39 degree slant."""
    read = [read_close_up(phone_photo, hand_row[j:j + 1]) == [{hand_row.code(j)}] for j in range(len(hand_row))]
    assert sum(read) >= ONE_TILE_READ, read


def test_a_look_is_laid_in_a_canvas_of_its_border_colour() -> None:
    """A quarter of its long side more on every side, in multiples of 32, centred; the fill its border's median."""
    look = np.full((30, 40, 3), 200, np.uint8)
    look[0] = (10, 120, 30)  # one side of four a table's green: the median is the tile's own light
    look[10:20, 10:30] = 0  # a face's ink, inside the border: no say
    canvas, (left, top) = framed(look)
    assert canvas.shape == (64, 64, 3) and (left, top) == (12, 17)
    assert (canvas[top:top + 30, left:left + 40] == look).all()
    assert (canvas[0, 0] == 200).all() and (canvas[-1, -1] == 200).all()


def test_one_real_tile_filling_the_frame_is_read_as_in_the_whole_photo() -> None:
    """leo-059, a real hand on a real table: each of its row's seven tiles cut alone (90 % of the frame). The base
    looks boxed their characters, and read 4 of 7; the close-up detector boxes the tile whole on a framed look, and
    the blank white dragon alone is a face."""
    photo = load_photo(LEO_059)
    row = row_of(photo)
    assert len(row) == 7
    read = [read_close_up(photo, row[j:j + 1]) == [{row.code(j)}] for j in range(len(row))]
    assert all(read), read


def test_real_tiles_the_close_up_detector_is_certain_of_are_read_though_a_bookshelf_lies_behind_them() -> None:
    """leo-010's hand row cut in fours: behind the first four, a bookshelf's spines are boxed as whole tiles by the
    base looks, lying off the four large tiles, which alone would say the large ones are things beside a hand. The
    close-up detector is certain of all four (0.85-0.92), and they are read; before, 4 of 8."""
    photo = load_photo(LEO_010)
    row = row_of(photo)
    assert len(row) == 9
    for start in (0, 4):
        tiles = row[start:start + 4]
        assert read_close_up(photo, tiles) == [{tiles.code(j)} for j in range(4)], start


def test_real_tiles_the_close_up_detector_is_mostly_certain_of_are_read_though_a_bookshelf_lies_above_them() -> None:
    """leo-059's first four tiles with the phone held upright: the frame's top third is a bookshelf, where the base
    looks box two spines as tiles, lying off the four large tiles. The close-up detector boxes the four at 0.69-0.85,
    half of them certain (0.8); before, they were read at the spines' size and 0 of 4 were found."""
    photo = load_photo(LEO_059)
    tiles = row_of(photo)[0:4]
    assert read_close_up(photo, tiles, upright=True) == [{tiles.code(j)} for j in range(4)]


def test_a_real_blank_white_dragon_filling_the_frame_is_read_as_a_face() -> None:
    """leo-059's white dragon cut alone, and beside its north wind: the reader is torn between a blank face and a back
    (0.35 against 0.49). Alone, a tile photographed is one to be named, so a face; beside a sure face, its paper is
    that face's colour."""
    photo = load_photo(LEO_059)
    row = row_of(photo)
    white = [row.code(j) for j in range(len(row))].index("WD")
    for tiles in (row[white:white + 1], row[white:white + 2]):
        assert read_close_up(photo, tiles) == [{tiles.code(j)} for j in range(len(tiles))]


def test_a_real_sets_tiles_filling_the_frame_in_ones_and_threes_are_read_as_in_the_whole_photo() -> None:
    """A real HK set (set05-1, never trained on): 1D to 9D and four winds, cut one and three to the frame. The base
    looks read 2 of 13 alone and 6 of 12 in threes (pips boxed as tiles, a 3 of dots turned a quarter by its pips).
    The north wind alone, in a frame 92 px wide, the close-up detector boxes unsurely (0.35 and 0.34) but alike at
    two looks, and that is evidence enough (``detect.seen_alike``): before, its index letter was read as the tile."""
    if not HK_SET05.is_file():
        pytest.skip("the HK set photos are not in ../shared/realdev/hk-sets beside the repository (or PUNGCHOW_SHARED_DIR)")
    photo = load_photo(HK_SET05)
    row = row_of(photo)
    assert len(row) == 13
    ones = [read_close_up(photo, row[j:j + 1]) == [{row.code(j)}] for j in range(len(row))]
    threes = [read_close_up(photo, row[j:j + 3]) == [{row.code(k)} for k in range(j, j + 3)] for j in range(0, 12, 3)]
    assert all(ones) and all(threes), (ones, threes)


def test_a_whole_hand_is_no_close_up(phone_photo: np.ndarray) -> None:
    assert not looks(phone_photo).close_up


@pytest.mark.skipif(missing_fonts() is not None, reason=f"the drawn hand needs the renderer's fonts: {missing_fonts()}")
def test_a_drawn_hand_turned_on_its_side_is_no_close_up() -> None:
    """Drawn cards scene 3802 turned a quarter: the close-up detector boxes the hand's whole stretch of table as one
    tile (0.40), and the hand's 13 sideways tiles, small beside it, lay on it: read as a close-up, the hand was lost.
    A tile bears at most nine pips (``detect.MORE_THAN_PIPS``)."""
    jpeg = cv2.imencode(".jpg", draw_scene("cards", 3802).image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    photo = np.ascontiguousarray(cv2.rotate(load_photo(jpeg), cv2.ROTATE_90_CLOCKWISE))  # as the bench reads it
    assert not looks(photo).close_up


def _boxes(rows: list[list[float]], score: float = 0.9) -> Detections:
    return Detections(np.array(rows, np.float32).reshape(-1, 4), np.full(len(rows), score, np.float32))


def test_a_large_tile_two_close_up_looks_box_alike_is_seen_though_neither_is_sure() -> None:
    """set05-1's north wind alone: boxed 77 by 81 at the 48 px look and 76 by 88 at the tight one (both about 0.35),
    its index letter 17 by 17. Two looks agreeing on a large box see a tile; one look's boxes alone, or a small box,
    do not."""
    every = _boxes([[13, 19, 77, 81], [15, 5, 76, 88], [6, 5, 17, 17]], score=0.35)
    large = np.array([True, True, False])
    assert seen_alike(every, np.array([0, 1, 0]), large).tolist() == [True, True, False]
    assert seen_alike(every, np.array([0, 0, 0]), large).tolist() == [False, False, False]
    apart = _boxes([[13, 19, 77, 81], [60, 5, 76, 88]], score=0.35)
    assert seen_alike(apart, np.array([0, 1]), np.array([True, True])).tolist() == [False, False]


def test_a_tile_filling_the_frame_holds_its_pips_but_a_clump_holds_tiles() -> None:
    """A 9 of dots 72 by 97 filling the frame, four of whose pips (17 by 22) the base looks box tile-shaped, is a tile:
    its pips cover a tenth of it. A 1922 print's kongs boxed as one 200 by 150, the eight tiles on it covering 0.6 of
    it, are a clump; so is a large box over a hand's row of thirteen small sure tiles, covering little of it."""
    nine_dots = _boxes([[5, 9, 72, 97]])
    pips = _boxes([[10 + 22 * (k % 3), 15 + 30 * (k // 3), 17, 22] for k in range(4)])
    assert clumps_dropped(nine_dots, pips, pips) is not None
    kongs = _boxes([[0, 0, 200, 150]])
    tiles = _boxes([[5 + 48 * (k % 4), 5 + 70 * (k // 4), 45, 60] for k in range(8)])
    assert clumps_dropped(kongs, tiles, tiles) is None
    stretch = _boxes([[0, 80, 450, 515]])
    row = _boxes([[160 + (k % 2) * 80, 150 + 35 * (k // 2), 40, 50] for k in range(13)])
    assert clumps_dropped(stretch, row[:2], row) is None


def test_a_real_tile_filling_the_frame_edge_to_edge_is_boxed_at_a_tighter_look() -> None:
    """set01-1's 5 of bamboo and set11-1's 9 of dots, each cut alone, and set01-2's east wind and red dragon cut as a
    pair: the 48 px close-up look boxes them squat or unsure (137 by 149 at 0.47; 0.36; 0.35 and 0.34), the base
    looks their sticks, pips and strokes (the pair was turned a quarter and read as one tile). At 40 px each is boxed
    tile-shaped and sure (0.56, 0.51, 0.65 and 0.54), and read."""
    photos = HK_SET05.parent
    if not (photos / "set01-1.jpg").is_file():
        pytest.skip("the HK set photos are not in ../shared/realdev/hk-sets beside the repository (or PUNGCHOW_SHARED_DIR)")
    for name, code, many in (("set01-1.jpg", "5B", 1), ("set11-1.jpg", "9D", 1), ("set01-2.jpg", "EW", 2)):
        row = row_of(load_photo(photos / name))
        first = [row.code(j) for j in range(len(row))].index(code)
        tiles = row[first:first + many]
        assert read_close_up(load_photo(photos / name), tiles) == [{tiles.code(j)} for j in range(many)], name


def test_a_real_pair_framed_upright_is_read_though_the_detector_is_unsure_of_one() -> None:
    """set01-2's east wind and red dragon framed with the phone upright, the next row's flowers cut below them: the
    close-up detector is sure of the dragon (0.44) but not of the wind (0.39 at the 48 px look, 0.33 at the tight one,
    the two boxes alike), and the wind's strokes, boxed by the base looks, lying off the dragon, said the cut was no
    close-up: the flowers' corners were read instead, and neither tile. Boxed alike at two looks, the wind is a tile
    (``detect.seen_alike``), and both are read."""
    photo_path = HK_SET05.parent / "set01-2.jpg"
    if not photo_path.is_file():
        pytest.skip("the HK set photos are not in ../shared/realdev/hk-sets beside the repository (or PUNGCHOW_SHARED_DIR)")
    photo = load_photo(photo_path)
    row = row_of(photo)
    first = [row.code(j) for j in range(len(row))].index("EW")
    tiles = row[first:first + 2]
    assert [tiles.code(j) for j in range(2)] == ["EW", "RD"]
    assert read_close_up(photo, tiles, upright=True) == [{"EW"}, {"RD"}]


def test_a_real_sets_two_of_dots_cut_four_to_the_frame_are_read_at_the_tiles_size() -> None:
    """set01-6's 6D, 2D, 2D and north wind cut to the frame (never measured while the rules were made): the base looks
    boxed one large circle of each 2 of dots, and the photo was read at the circles' size, four 1 of dots and none of
    the four tiles. The widest look's tiles each bear one such circle (``detect.bearing``), and all four are read."""
    photo_path = HK_SET05.parent / "set01-6.jpg"
    if not photo_path.is_file():
        pytest.skip("the HK set photos are not in ../shared/realdev/hk-sets beside the repository (or PUNGCHOW_SHARED_DIR)")
    photo = load_photo(photo_path)
    row = row_of(photo)
    assert [row.code(j) for j in range(len(row))] == ["6D", "2D", "2D", "NW"]
    assert read_close_up(photo, row) == [{"6D"}, {"2D"}, {"2D"}, {"NW"}]


def test_a_real_sets_rows_of_dots_cut_to_the_frame_are_not_read_as_a_slant() -> None:
    """set07-1's dots, eight of its hand row and the rows below cut to the frame: their pips, four-leafed clovers set
    on a slant, made the tiles' edges agree on a 44 degree slant (0.98), and the photo was turned, every box a clump.
    Its tiles' boxes stand 1.33 long, as upright tiles' do: no slant is believed (``level.SLANTED_BOXES``)."""
    photo_path = HK_SET05.parent / "set07-1.jpg"
    if not photo_path.is_file():
        pytest.skip("the HK set photos are not in ../shared/realdev/hk-sets beside the repository (or PUNGCHOW_SHARED_DIR)")
    photo = load_photo(photo_path)
    row = row_of(photo)
    assert read_close_up(photo, row[:8]) == [{row.code(j)} for j in range(8)]


def test_a_close_up_is_read_as_taken_its_tiles_tilts_still_measured() -> None:
    """One of leo-059's tiles alone in the frame is a close-up: levelling leaves it as taken (its pips would stand as
    tiles at levelling's looks), but the way its edges run is measured, for a tile askew to be read turned upright."""
    photo = load_photo(LEO_059)
    tile = row_of(photo)[:1]
    x, y, w, h = tile.boxes[0]
    frame = np.ascontiguousarray(photo[int(y - 0.05 * h):int(y + 1.05 * h), int(x - 0.05 * w):int(x + 1.05 * w)])
    seen = looks(frame)
    assert seen.close_up
    directions: dict[bytes, tuple[float, float]] = {}
    assert level(frame, seen.merged(), seen=seen, directions=directions) is None
    assert directions


def test_a_real_nine_of_dots_filling_the_frame_is_read_as_in_the_whole_photo() -> None:
    """set09-1's two 9 of dots, each cut alone to the frame: the base looks box its pips as tiles, three and four of
    them tile-shaped, and the close-up detector's sure tile (0.87, 0.94) was dropped as a clump of them."""
    photo_path = HK_SET05.parent / "set09-1.jpg"
    if not photo_path.is_file():
        pytest.skip("the HK set photos are not in ../shared/realdev/hk-sets beside the repository (or PUNGCHOW_SHARED_DIR)")
    photo = load_photo(photo_path)
    whole = recognize(photo).detections
    nines = [k for k in range(len(whole)) if whole.code(k) == "9D"]
    assert len(nines) == 4
    assert [read_close_up(photo, whole[k:k + 1]) for k in nines] == [[{"9D"}]] * 4


def test_a_real_sets_four_tiles_filling_the_frame_are_read_whole_the_squat_one_too() -> None:
    """set05-1's 1D to 4D cut to the frame: the close-up detector boxed the fourth squat (103 by 108, 0.47), under a
    tile's shape, so its pips, lying off the other three, kept the cut from being read as a close-up, and none of the
    four was read. Boxed in a row with the three, it is their fellow (``detect.close_up_tiles``)."""
    if not HK_SET05.is_file():
        pytest.skip("the HK set photos are not in ../shared/realdev/hk-sets beside the repository (or PUNGCHOW_SHARED_DIR)")
    photo = load_photo(HK_SET05)
    row = row_of(photo)
    assert read_close_up(photo, row[:4]) == [{row.code(j)} for j in range(4)]
