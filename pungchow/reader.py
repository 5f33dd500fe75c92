"""``pungchow recognize | classify | photo | evaluate | tileset``: the recognizer's commands.

They join the recogniser, the scorer and the page's drawing, so they live here, above all three."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from recognizer import SAMPLE_PHOTO
from recognizer.detections import UNSURE_BELOW
from recognizer.labels import CLASSES
from recognizer.numbering import corners, photo_order
from scoring.argtypes import check_image_out, positive_int
from scoring.errors import PungChowError
from scoring.hand import WinMethod

#: How the last tile came, as a sentence says it.
WON_BY_PHRASE = {"discard": "off a discard", "wall": "from the wall", "loose-tile": "with a loose tile", "last-tile": "with the last tile",
                 "robbed-kong": "by robbing a kong", "original-hand": "on the original hand"}

if TYPE_CHECKING:
    from recognizer.hand import Recognition
    from scoring.api import Hand


def tile_numbers(res: Recognition) -> dict[int, int]:
    """Each detection's number as the overlay and the page draw it (row by row, left to right), by detection index."""
    width, height = res.own_size
    boxes = res.boxes_at(width, height)  # (x, y, w, h), as the page reads them back
    order = photo_order([corners(boxes[k]) for k in range(len(res.detections))], res.turned)
    return {index: number for number, index in enumerate(order)}


def _print_recognition(res: Recognition, as_json: bool, *, won_by_given: bool = True) -> None:
    if as_json:
        data = res.to_json()
        numbers = tile_numbers(res)
        for tile in data["tiles"]:
            tile["number"] = numbers[tile["index"]]  # the number on the overlay and the page; index is the detector's order
        for change in (data.get("decoded") or {}).get("changes", []):
            change["number"] = numbers[change["tile"]]  # as its reason names the other tiles of its set
        if not won_by_given and data["hand"].get("winner"):
            data["won_by_assumed"] = True  # nobody said how it was won: the hand's won_by is the reader's guess
        print(json.dumps(data, indent=2))
        return
    d = res.detections
    width, height = res.own_size
    boxes = res.boxes_at(width, height)  # in the photo's own pixels, as --json gives them
    numbers = tile_numbers(res)
    print(f"{len(d)} tiles in a {width}x{height} photo ({sum(res.timings_ms.values()):.0f} ms)")
    for g in res.groups:
        codes = " ".join(d.code(k) for k in g.members)
        where = "" if g.in_hand else f"  (set aside: {g.aside})" if g.aside else "  (not this hand)"
        print(f"  {g.kind.value:<9} {codes}{where}")
    for k in range(len(d)):
        if d.confidence[k] < UNSURE_BELOW:
            top = " / ".join(f"{CLASSES[int(c)]} {p:.2f}" for c, p in zip(d.top3[k], d.top3_p[k]))
            print(f"  unsure: tile #{numbers[k]} at {[int(v) for v in boxes[k]]}: {top}")
    decoding = res.decoding
    if decoding is not None:
        for change in decoding.changes:
            print(f"  read as a hand: tile #{numbers[change.tile]}: {change.was} -> {change.now}, {change.why}")
        if decoding.runner_up is not None:
            print(f"  runner-up reading: {decoding.runner_up} ({decoding.runner_up.to_json()['times_less_likely']:g} times less likely)")
    winning = f"  winning tile {res.hand.winning_tile}" if res.hand.winning_tile else ""
    if winning and res.trace is not None and res.trace.winning_tile is not None and res.trace.winning_shown:
        winning += f" (#{numbers[res.trace.winning_tile]}, {res.trace.winning_shown})"
    print(f"hand: {res.hand}{winning}")
    for p in res.problems:
        print(f"  problem: {p}")


def _offer_tileset(rgb: object, res: Recognition, current: str | None) -> None:
    """Say when a calibrated set would read the photo better (on stderr, so JSON output stays clean)."""
    from recognizer.pipeline import better_tileset
    from recognizer.tileset import read_all_tilesets

    sets, damaged = read_all_tilesets()
    for note in damaged:
        print(f"note: {note}", file=sys.stderr)
    better = better_tileset(rgb, res, current, sets)  # type: ignore[arg-type]
    if better:
        print(f"note: {better}", file=sys.stderr)


def _recognize(args: argparse.Namespace) -> int:
    from recognizer.image import load_photo_sized
    from recognizer.pipeline import recognize
    from webapp.drawing import draw_overlay

    if args.overlay:
        check_image_out(Path(args.overlay), force=args.force, keep=(Path(args.photo),))
    rgb, own_size = load_photo_sized(args.photo)  # decoded once: read, drawn on and offered a tile set
    res = recognize(rgb, args.tileset, photo_size=own_size)
    if args.overlay:
        draw_overlay(rgb, res, args.overlay)
        print(f"overlay: {args.overlay} (the photo with each tile's box, number and code as the page shows them)", file=sys.stderr)
    _print_recognition(res, args.json, won_by_given=False)
    _offer_tileset(rgb, res, args.tileset)
    return 0


def _classify(args: argparse.Namespace) -> int:
    from recognizer.classify import classify_tile_image
    from recognizer.errors import BadPhotoError
    from recognizer.image import load_photo
    from recognizer.tileset import load_tileset

    ts = load_tileset(args.tileset) if args.tileset else None
    out: list[dict[str, Any]] = []
    for path in args.images:
        try:
            d = classify_tile_image(load_photo(path), ts)
        except BadPhotoError as exc:
            raise BadPhotoError(str(exc) if str(path) in str(exc) else f"{path}: {exc}") from None
        top3 = [{"code": CLASSES[int(c)], "p": round(float(p), 3)} for c, p in zip(d.top3[0], d.top3_p[0])]
        out.append({"image": str(path), "code": d.code(0), "confidence": round(float(d.confidence[0]), 3), "top3": top3})
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for o in out:
            alts = ", ".join(f"{t['code']} {t['p']:.2f}" for t in o["top3"])
            print(f"{o['image']}: {o['code']} ({o['confidence']:.2f}; top 3: {alts})")
    return 0


def _photo(args: argparse.Namespace) -> int:
    from recognizer.pipeline import recognize
    from scoring.cli import options_from_args, run_score
    from scoring.errors import InvalidHandError
    from scoring.hand import parse_wind
    from scoring.rulesets import get_rule_set

    # Every score option is checked before the photo is read, so a typo is reported as itself.
    context: dict[str, Any] = {"seat_wind": parse_wind(args.seat or "E", "seat wind"),
                               "prevailing_wind": parse_wind(args.round or "E", "prevailing wind")}
    options = options_from_args(args)
    if args.rules.strip().lower() != "all":
        get_rule_set(args.rules).resolve_options(options)
    if args.won_by:
        context["won_by"] = args.won_by
    photo = args.photo
    if photo is None:
        photo = SAMPLE_PHOTO
        print(f"No photo given: reading the sample photo {photo} (pass your own: pungchow photo PHOTO)", file=sys.stderr)
    from recognizer.image import load_photo

    rgb = load_photo(photo)
    res = recognize(rgb, args.tileset, None if args.rules.strip().lower() == "all" else args.rules, **context)
    if len(res.detections) == 0:
        raise InvalidHandError([f"{photo}: " + res.problems[0]])
    _offer_tileset(rgb, res, args.tileset)
    if not args.json:
        _print_recognition(res, False)
        print()
    hand = res.hand
    if args.tile or args.add:
        hand = _corrected_hand(res, args.tile or [], args.add or [], sys.stderr if args.json else sys.stdout)
    if args.winning:
        from dataclasses import replace

        from scoring.tiles import Tile

        hand = replace(hand, winning_tile=Tile.parse(args.winning))
    problems = hand.problems()
    if problems:
        given = "with your corrections " if args.tile or args.add else ""
        raise InvalidHandError([f"the photo {given}gives the hand " + str(hand) + ", which cannot be scored"] + problems +
                               ["check the tiles with `pungchow recognize PHOTO --overlay OUT.png`, then put them right with "
                                "--tile N=CODE and --add CODE (or score the corrected hand with `pungchow score`)"])
    if not args.won_by and hand.winner and hand.won_by is not None:
        _say_assumed_win(hand, hand.won_by, args)
    return run_score(hand, args)


def _corrected_hand(res: Recognition, fixes: list[str], added: list[str], out: TextIO) -> Hand:
    """The photo's hand with the player's word on some tiles (``N=CODE``, N the tile's number on the overlay) and the
    tiles the reader missed added, read again as one hand around them (``review.read_again``), as the page reads it
    after each correction; each tile the decoder reads otherwise than the reader's best guess is said, with why."""
    from webapp import review as rv

    review = rv.Review.from_recognition(res)
    for fix in fixes:
        number, _, code = fix.partition("=")
        if not number.strip().isdigit() or not code.strip():
            raise PungChowError(f"--tile {fix!r} is not NUMBER=CODE: give the tile's number on the overlay and its face, e.g. --tile 13=5C")
        if int(number) not in {t.id for t in review.tiles}:
            raise PungChowError(f"--tile {fix!r}: the photo has no tile #{int(number)}; see the numbers with "
                                "`pungchow recognize PHOTO --overlay OUT.png`")
        fixed = rv.replace_tile(review, int(number), code.strip())
        if fixed is not review and (followed := rv.twins_words(fixed.corrections[-1])):
            print(f"tile #{int(number)} is {fixed.tile(int(number)).code}, and {followed}", file=out)
        review = fixed
    for code in added:
        review = rv.add_tile(review, code)
    review = rv.read_again(review)
    for t in rv.tiles_in_photo_order(review):
        if t.decoded and t.alternatives:
            print(f"read again as a hand: tile #{t.id}: {t.alternatives[0][0]} -> {t.code}, {t.decoded}", file=out)
    review = rv.set_circumstances(review, won_by=res.hand.won_by, seat_wind=res.hand.seat_wind, prevailing_wind=res.hand.prevailing_wind,
                                  winner=res.hand.winner)
    hand, _ = rv.to_hand(review)
    if hand is None:
        raise PungChowError("the corrected photo gives no hand: check the tiles with `pungchow recognize PHOTO --overlay OUT.png`")
    print(f"hand with your corrections: {hand}" + (f"  winning tile {hand.winning_tile}" if hand.winning_tile else ""), file=out)
    return hand


def _say_assumed_win(hand: Hand, won_by: WinMethod, args: argparse.Namespace) -> None:
    """A photo cannot show how the last tile came: say which way the hand is scored, and what the other way scores."""
    from dataclasses import replace

    from scoring import service
    from scoring.api import ScoreResult

    other = WinMethod.WALL if won_by is WinMethod.DISCARD else WinMethod.DISCARD
    note = f"won by: not given, so scored as won {WON_BY_PHRASE.get(won_by.value, won_by.value)}"
    if args.rules.strip().lower() != service.ALL:
        from scoring.cli import options_from_args

        result = service.score_one(replace(hand, won_by=other), args.rules, options_from_args(args))
        if isinstance(result, ScoreResult):
            note += f"; {WON_BY_PHRASE[other.value]} it scores {result.total}"
    note += f": say how with --won-by {other.value} (or {won_by.value})"
    print(note, file=sys.stderr if args.json else sys.stdout)


def _evaluate(args: argparse.Namespace) -> int:
    from recognizer.evaluate import evaluate, format_report

    def progress(n: int, total: int) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"\r{n}/{total}", end="", file=sys.stderr, flush=True)

    split = None if args.split == "all" else args.split
    summary = evaluate(args.dataset, split, args.tileset, args.limit, progress)
    if not args.json and sys.stderr.isatty():
        print(file=sys.stderr)
    print(json.dumps(summary, indent=2) if args.json else format_report(summary))
    return 0


def _tileset_add(args: argparse.Namespace) -> int:
    from recognizer.tileset import calibrate

    ts, folder = calibrate(args.name, args.photo, args.layout, Path(args.into) if args.into else None, replace=args.replace)
    print(f"tile set {ts.name!r}: {len(ts.codes)} tiles learned from {args.photo}, saved in {folder}")
    print(f"use it with: pungchow recognize PHOTO --tileset {ts.name}")
    return 0


def _tileset_learn(args: argparse.Namespace) -> int:
    from recognizer.tileset import learn_from_corrected

    learnt = learn_from_corrected(args.name, args.photo, args.corrected, Path(args.into) if args.into else None)
    print(f"{learnt}, saved in {learnt.folder}")
    print(f"use it with: pungchow recognize PHOTO --tileset {learnt.name}")
    return 0


def _tileset_remove(args: argparse.Namespace) -> int:
    from recognizer.tileset import remove_tileset

    print(remove_tileset(args.name))
    return 0


def _tileset_list(args: argparse.Namespace) -> int:
    from recognizer.tileset import builtin_tileset_dir, list_tilesets, list_tilesets_in, own_tilesets, player_store

    names = list_tilesets()
    own, builtin = set(own_tilesets()), set(list_tilesets_in(builtin_tileset_dir()))
    for n in names:
        broken = f"a folder of yours that does not read: recognize --tileset {n} says why"
        print(f"{n}  ({'yours' if n in own else 'built-in' if n in builtin else broken})")
    if own:
        print(f"yours are kept in {player_store().path}")
    if not names:
        print("no tile sets yet: add one with `pungchow tileset add NAME PHOTO --layout LAYOUT.json`")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from scoring.cli import add_score_options

    p = sub.add_parser("recognize", help="find and name every tile of a photo and build the hand")
    p.add_argument("photo", help="a JPEG or PNG photo of the finished hand")
    p.add_argument("--tileset", metavar="NAME", help="a calibrated tile set (see `pungchow tileset list`)")
    p.add_argument("--json", action="store_true", help="print tiles, boxes, groups and the hand JSON")
    p.add_argument("--overlay", metavar="OUT.png", help="write the photo with boxes and codes drawn on it (never over the photo)")
    p.add_argument("--force", action="store_true", help="replace an existing overlay file")
    p.set_defaults(func=_recognize)

    p = sub.add_parser("classify", help="name single-tile images (one tile per image): code, confidence, top 3")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--tileset", metavar="NAME", help="a calibrated or learnt tile set of the player's own (see `pungchow tileset list`)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_classify)

    p = sub.add_parser("photo", help="recognize a photo, then score the hand it shows")
    p.add_argument("photo", nargs="?", help="a JPEG or PNG photo of the finished hand (default: the sample photo shipped with pungchow)")
    p.add_argument("--tile", action="append", metavar="N=CODE",
                   help="tile N (its number on the overlay) is CODE, e.g. 13=5C; your word is final and the rest of the hand "
                        "is read again around it (repeat for more tiles)")
    p.add_argument("--add", action="append", metavar="CODE", help="a tile the reader missed, added to the tiles in hand (repeatable)")
    p.add_argument("--tileset", metavar="NAME", help="a calibrated or learnt tile set of the player's own (see `pungchow tileset list`)")
    add_score_options(p)
    p.set_defaults(func=_photo)

    p = sub.add_parser("evaluate", help="tile precision/recall/F1, confusions, hand match and latency on a labelled dataset")
    p.add_argument("dataset", help="a dataset folder (images/ + annotations.json)")
    p.add_argument("--split", default="test", help="train, val, test or all (default test)")
    p.add_argument("--tileset", metavar="NAME", help="a calibrated or learnt tile set of the player's own (see `pungchow tileset list`)")
    p.add_argument("--limit", type=positive_int, help="only the first N images (N at least 1)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_evaluate)

    p = sub.add_parser("tileset", help="teach the reader your own set (from corrected photos or one calibration photo), or list the sets")
    tsub = p.add_subparsers(dest="tileset_command", metavar="SUBCOMMAND")
    a = tsub.add_parser("add", help="learn a set from a photo of one of each tile laid in rows")
    a.add_argument("name")
    a.add_argument("photo")
    a.add_argument("--layout", required=True, metavar="LAYOUT.json", help='JSON {"rows": [["1D", "2D", ...], ...]}: the codes row by row')
    a.add_argument("--into", metavar="DIR", help="a folder to write the set into as files (default: your history file, with your hands)")
    a.add_argument("--replace", action="store_true", help="calibrate a set of yours that already exists again (its old files are replaced)")
    a.set_defaults(func=_tileset_add)
    learn = tsub.add_parser("learn", help="add the tiles of a corrected recognition of a photo to a set, starting it if new")
    learn.add_argument("name")
    learn.add_argument("photo")
    learn.add_argument("--corrected", required=True, metavar="FILE",
                       help="the photo's `recognize --json` with every wrong code put right (only each tile's box and code are read)")
    learn.add_argument("--into", metavar="DIR", help="a folder of sets as files (default: kept with your hands in your history file)")
    learn.set_defaults(func=_tileset_learn)
    rm = tsub.add_parser("remove", help="remove a set of yours (export it first to keep it), a damaged one too")
    rm.add_argument("name")
    rm.set_defaults(func=_tileset_remove)
    lst = tsub.add_parser("list", help="list built-in and your tile sets")
    lst.set_defaults(func=_tileset_list)
    p.set_defaults(func=_tileset_list)

