"""``pungchow data ...``: make training data (generate, import-leo), look at it (contact-sheet, stats).

Registered by ``pungchow.cli``; each handler returns an exit code, and user mistakes raise
PungChowError so the main command prints one line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scoring.argtypes import check_dataset_out, check_image_out, positive_int
from scoring.errors import PungChowError

#: ``generate --scale`` bounds: 1 draws photos as an app downsized them (640-1600 px long), 5 up to 8000 px long.
MIN_SCALE, MAX_SCALE = 1.0, 5.0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from pungchow_data.faces import HOLDOUT_STYLES, STYLES

    data = subparsers.add_parser("data", help="make and inspect training data (synthetic scenes, real photo importers)")
    sub = data.add_subparsers(dest="data_command", metavar="SUBCOMMAND")
    def show_help(args: argparse.Namespace) -> int:
        data.print_help()
        return 2

    data.set_defaults(func=show_help)

    gen = sub.add_parser("generate", help="render synthetic finished-hand photos with exact labels")
    gen.add_argument("out", type=Path, help="dataset folder to write (images/ and annotations.json)")
    gen.add_argument("--count", type=positive_int, default=2000, help="number of scenes (default 2000)")
    gen.add_argument("--seed", type=int, default=0, help="same seed, same bytes (default 0)")
    gen.add_argument("--styles", nargs="+", metavar="STYLE", help=f"tile styles to use (default all: {' '.join(STYLES)})")
    gen.add_argument("--exclude-styles", nargs="+", metavar="STYLE", default=[], help="styles to leave out (hold them out for evaluation)")
    gen.add_argument("--holdout-styles", action="store_true",
                     help=f"leave out the held-out styles ({' '.join(HOLDOUT_STYLES)}); render them with --styles ... --split test")
    gen.add_argument("--families", nargs="+", metavar="FAMILY", default=[],
                     help="add real-set style families (pungchow_data.realsets): names, 'train' (all but the held-out ones) or 'all'")
    gen.add_argument("--exclude-families", nargs="+", metavar="FAMILY", default=[],
                     help="leave these real-set families out ('heldout' = the held-out families)")
    gen.add_argument("--split", choices=["train", "val", "test"], help="put every image in this split (e.g. a held-out style test set)")
    gen.add_argument("--workers", type=positive_int, default=2, help="processes to render with (default 2)")
    gen.add_argument("--mix-bodies", type=float, default=0.0, metavar="SHARE",
                     help="share of scenes (0-1) whose tiles get random back, face and ink colours (default 0)")
    gen.add_argument("--scale", type=float, default=1.0, metavar="TIMES",
                     help=f"draw every photo this many times larger, {MIN_SCALE:g}-{MAX_SCALE:g} (default 1: photos an app has "
                          "downsized; 4.2: as a 12 MP phone takes them)")
    gen.set_defaults(func=_generate)

    leo = sub.add_parser("import-leo", help="import the leo-mahjong-v5 photos, un-stretched to 16:9 and split by scene")
    leo.add_argument("out", type=Path, help="dataset folder to write")
    leo.add_argument("--source", type=Path, default=None,
                     help="the export folder (default ../shared/datasets/leo-mahjong-v5 beside the repository)")
    leo.add_argument("--height", type=positive_int, default=640, help="height of the restored images; width is 16/9 of it (default 640)")
    leo.set_defaults(func=_import_leo)

    rot = sub.add_parser("rotate", help="write a copy of a dataset turned by quarter turns, labels and all (rotation check)")
    rot.add_argument("dataset", type=Path)
    rot.add_argument("out", type=Path, help="new dataset folder to write")
    rot.add_argument("--degrees", type=int, choices=[90, 180, 270], required=True, help="clockwise turn")
    rot.set_defaults(func=_rotate)

    sheet = sub.add_parser("contact-sheet", help="write a PNG of sample images with their labels drawn on")
    sheet.add_argument("dataset", type=Path)
    sheet.add_argument("out", type=Path, help="PNG file to write")
    sheet.add_argument("--count", type=positive_int, default=16, help="images on the sheet (default 16)")
    sheet.add_argument("--seed", type=int, default=0)
    sheet.add_argument("--force", action="store_true", help="replace an existing file (never an image of the dataset)")
    sheet.set_defaults(func=_contact_sheet)

    stats = sub.add_parser("stats", help="count images and tiles per class, split and style of a dataset")
    stats.add_argument("dataset", type=Path)
    stats.set_defaults(func=_stats)

    styles = sub.add_parser("styles", help="list the tile styles, or write a sheet of one style's faces")
    styles.add_argument("--sheet", nargs=2, metavar=("STYLE", "OUT_PNG"))
    styles.add_argument("--force", action="store_true", help="replace an existing sheet file")
    styles.set_defaults(func=_styles)


def _generate(args: argparse.Namespace) -> int:
    from pungchow_data.faces import HOLDOUT_STYLES, resolve_styles
    from pungchow_data.generate import GenerateConfig, generate, summary

    check_dataset_out(args.out)
    if not 0.0 <= args.mix_bodies <= 1.0:
        raise PungChowError(f"--mix-bodies must be a share between 0 and 1, not {args.mix_bodies}")
    if not MIN_SCALE <= args.scale <= MAX_SCALE:
        raise PungChowError(f"--scale must be between {MIN_SCALE:g} and {MAX_SCALE:g} (4.2 draws a 12 MP photo), not {args.scale:g}")
    from pungchow_data.realsets import HOLDOUT_FAMILIES, family_names

    exclude = list(args.exclude_styles) + (list(HOLDOUT_STYLES) if args.holdout_styles else [])
    exclude += family_names(args.exclude_families)
    families = [f for f in family_names(args.families) if f not in exclude]
    if args.holdout_styles:
        families = [f for f in families if f not in HOLDOUT_FAMILIES]
    include = list(args.styles) if args.styles else None  # None: every classic style
    if families:  # families alone render only families; with --styles, both
        include = (include or []) + [f for f in families if f not in (include or [])]
    styles = tuple(s.name for s in resolve_styles(include, exclude))
    config = GenerateConfig(out=args.out, count=args.count, seed=args.seed, styles=styles, split=args.split,
                            workers=max(1, args.workers), mix_bodies=args.mix_bodies, scale=args.scale)

    def progress(done: int, total: int) -> None:
        if done == total or done % 100 == 0:
            print(f"\r{done}/{total} scenes", end="", file=sys.stderr, flush=True)

    path, seconds = generate(config, progress)
    print(file=sys.stderr)
    s = summary(path)
    print(f"wrote {s['images']} images, {s['tiles']} tiles to {path} in {seconds:.1f} s")
    return 0


def _rotate(args: argparse.Namespace) -> int:
    from pungchow_data.rotate import rotate_dataset

    path = rotate_dataset(args.dataset, args.out, args.degrees // 90)
    print(f"wrote {path}")
    return 0


def _import_leo(args: argparse.Namespace) -> int:
    from pungchow_data.leo import LEO_DIR, import_leo

    check_dataset_out(args.out)
    path, counts = import_leo(args.out, args.source or LEO_DIR, height=args.height)
    print(f"wrote {path}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


def _contact_sheet(args: argparse.Namespace) -> int:
    from pungchow_data.contact import contact_sheet_of

    check_image_out(args.out, force=args.force)
    _outside_dataset(args.out, args.dataset)
    out = contact_sheet_of(args.dataset, args.out, count=args.count, seed=args.seed)
    print(f"wrote {out}")
    return 0


def _outside_dataset(out: Path, dataset: Path) -> None:
    """A sheet is never written into the dataset it shows: there it could replace one of the dataset's own images."""
    try:
        within = out.resolve().is_relative_to(dataset.resolve())
    except (OSError, RuntimeError):
        within = False
    if within:
        raise PungChowError(f"{out} lies inside the dataset {dataset}: write the contact sheet outside it")


def _stats(args: argparse.Namespace) -> int:
    from collections import Counter

    from pungchow_data.coco import load_dataset

    ds = load_dataset(args.dataset)
    per_image = Counter(code for im in ds.images for code in {t.code for t in im.tiles})
    report = {
        "images": len(ds.images),
        "tiles": sum(len(im.tiles) for im in ds.images),
        "splits": dict(Counter(im.split for im in ds.images)),
        "styles": dict(Counter(im.style for im in ds.images)),
        "scenes": len({im.scene for im in ds.images}),
        "tiles_per_class": ds.class_counts(),
        "images_per_class": {c: per_image.get(c, 0) for c in ds.class_counts()},
    }
    print(json.dumps(report, indent=1))
    return 0


def _styles(args: argparse.Namespace) -> int:
    from pungchow_data.faces import HOLDOUT_STYLES, STYLES, face_sheet, family_variant, resolve_styles
    from pungchow_data.realsets import FAMILIES, HOLDOUT_FAMILIES, OTHER_MARKS

    if args.sheet:
        name, out = args.sheet
        check_image_out(Path(out), force=args.force)
        style = resolve_styles([name])[0]  # unknown names and missing fonts: one line
        if style.family:  # one set of the family, the same every time
            import numpy as np

            style = family_variant(style, np.random.default_rng(0))
        face_sheet(style).save(out)
        print(f"wrote {out}")
        return 0
    for s in STYLES.values():
        print(f"{s.name:12s} {'held-out' if s.name in HOLDOUT_STYLES else 'train   '} face {s.face:6s} back {s.back:7s} "
              f"font {s.font:5s} dots {s.dots:6s} bamboo {s.bamboo:6s} "
              f"white dragon {s.white_dragon:6s} bonus {s.bonus:9s} corner index {'yes' if s.corner_index else 'no'}"
              + (f" art fluffystuff/{s.art}" if s.art else ""))
    for name, f in FAMILIES.items():
        print(f"{name:12s} {'held-out' if name in HOLDOUT_FAMILIES else 'train   '} real-set family: fonts {', '.join(f.fonts)}; "
              f"birds {', '.join(f.birds)}" + (f" or their own ({f.drawn_birds:.0%} of sets)" if f.drawn_birds else "")
              + f"; dots {', '.join(f.dot_centres)}; white dragon {', '.join(f.white_dragon)}; "
              f"corner index {f.corner_index:.0%} of sets; flowers and seasons marked in the corners"
              + (f" or otherwise ({f.marked_otherwise:.0%} of sets: {', '.join(OTHER_MARKS)})" if f.marked_otherwise else "")
              + (f"; characters cut by hand in {f.carved:.0%} of sets" if f.carved else "; characters as the fonts draw them")
              + (f"; 5 of characters 伍 in {f.formal_five:.0%} of sets, else 五" if f.formal_five else "; 5 of characters 五")
              + " (--families)")
    return 0
