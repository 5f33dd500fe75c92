"""The two small networks: sized to train on 2 CPU cores in minutes and run in milliseconds."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from recognizer.labels import BONUS_LABELS, CLASSES

EMBED_DIM = 128


def conv(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TileClassifier(nn.Module):
    """64x48 crop -> (logits over CLASSES, L2-normalised embedding for tile-set prototypes).

    The crop is large enough for the strokes that tell 2 from 3 characters and for the corner
    numbers of flowers and seasons; the second convolution at 16x12 is there for the same strokes.
    """

    def __init__(self, n_classes: int = len(CLASSES)) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 16, 2), conv(16, 32),
            nn.MaxPool2d(2), conv(32, 64), conv(64, 64),
            nn.MaxPool2d(2), conv(64, 128), conv(128, 128),
        )
        self.embed = nn.Linear(128, EMBED_DIM)
        self.head = nn.Linear(EMBED_DIM, n_classes)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.features(x).mean(dim=(2, 3))
        e = F.relu(self.embed(f))
        logits = self.head(e)
        return logits, F.normalize(e, dim=1)


class BonusReader(nn.Module):
    """128x96 crop of a possible flower or season -> logits over BONUS_LABELS.

    One stride-2 step, then convolutions at 64x48: a corner number 14 px high in the crop is still 7 px
    when it is read, where the classifier's own features see it at 3 or 4 px.
    """

    def __init__(self, n_classes: int = len(BONUS_LABELS)) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 16, 2), conv(16, 24),
            nn.MaxPool2d(2), conv(24, 48), conv(48, 48),
            nn.MaxPool2d(2), conv(48, 96), conv(96, 96),
            nn.MaxPool2d(2), conv(96, 128),
        )
        self.head = nn.Linear(128, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.features(x).mean(dim=(2, 3)))
        return logits


class TileDetector(nn.Module):
    """CenterNet-style: image (sides multiples of 32) -> stride-4 maps (centre logit, log w, log h, dx, dy)."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = conv(3, 16, 2)
        self.s4 = nn.Sequential(conv(16, 24, 2), conv(24, 24))
        self.s8 = nn.Sequential(conv(24, 32, 2), conv(32, 32))
        self.s16 = nn.Sequential(conv(32, 64, 2), conv(64, 64))
        self.s32 = nn.Sequential(conv(64, 64, 2), conv(64, 64))
        self.up16 = conv(64, 64, k=1)
        self.up8 = conv(64, 32, k=1)
        self.merge8 = conv(32, 32)
        self.up4 = conv(32, 24, k=1)
        self.merge4 = conv(24, 24)
        self.out = nn.Conv2d(24, 5, 1)
        bias = self.out.bias
        assert bias is not None  # a Conv2d made with its default bias=True
        nn.init.constant_(bias, 0.0)
        with torch.no_grad():
            bias[0] = -2.19

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x4 = self.s4(self.s2(x))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        x32 = self.s32(x16)
        y = x16 + F.interpolate(self.up16(x32), scale_factor=2.0, mode="nearest")
        y = self.merge8(x8 + F.interpolate(self.up8(y), scale_factor=2.0, mode="nearest"))
        y = self.merge4(x4 + F.interpolate(self.up4(y), scale_factor=2.0, mode="nearest"))
        maps: torch.Tensor = self.out(y)
        return maps
