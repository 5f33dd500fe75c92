"""A training run's resumable state, shared by the classifier's and the bonus reader's runs.

A run on 2 cores takes hours and may be stopped at any time: ``OUT/NAME-ckpt.pt`` holds the weights, optimiser,
one-cycle schedule, step and random states (written beside, then moved over, so a stop mid-write loses nothing),
and ``OUT/NAME.pt`` the weights alone for export.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import TypeVar

import numpy as np
import torch

Net = TypeVar("Net", bound=torch.nn.Module)


def start(model: Net, init: str | None, lr: float, steps: int,
          warm_up: float) -> tuple[Net, torch.optim.AdamW, torch.optim.lr_scheduler.OneCycleLR]:
    """A run's network (from ``init`` weights when fine-tuning), AdamW and a one-cycle schedule over ``steps``."""
    if init:
        model.load_state_dict(torch.load(init, map_location="cpu"))
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=warm_up)
    return model, opt, sched


class Checkpoint:
    """Saves and restores one run; ``rngs`` names the numpy generators whose states travel with it."""

    def __init__(self, out: str, name: str, model: torch.nn.Module, opt: torch.optim.Optimizer,
                 sched: torch.optim.lr_scheduler.LRScheduler, steps: int, rngs: dict[str, np.random.Generator]) -> None:
        self.path = Path(out) / f"{name}-ckpt.pt"
        self.weights = Path(out) / f"{name}.pt"
        self.model, self.opt, self.sched, self.steps, self.rngs = model, opt, sched, steps, rngs
        self.step = 0

    def resume(self, path: str) -> int:
        """Restore the run saved in ``path``; the first step still to train. A different ``--steps`` is refused."""
        ck = torch.load(path, map_location="cpu", weights_only=False)
        if ck["steps"] != self.steps:
            raise SystemExit(f"{path} was made for --steps {ck['steps']}, not {self.steps}: resume with the same --steps")
        self.model.load_state_dict(ck["model"])
        self.opt.load_state_dict(ck["opt"])
        self.sched.load_state_dict(ck["sched"])
        for key, rng in self.rngs.items():
            if key in ck:
                rng.bit_generator.state = ck[key]
        torch.set_rng_state(ck["torch_rng"])
        self.step = ck["step"]
        print(f"resumed from {path} at step {ck['step']}/{ck['steps']}", flush=True)
        return self.step + 1

    def optimise(self, loss: torch.Tensor, step: int) -> None:
        """One optimiser and schedule step on ``loss``; the run is then at ``step``."""
        self.opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]  # torch's Tensor.backward has no annotations
        self.opt.step()
        self.sched.step()
        self.step = step

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        state = {"model": self.model.state_dict(), "opt": self.opt.state_dict(), "sched": self.sched.state_dict(),
                 "step": self.step, "steps": self.steps, "torch_rng": torch.get_rng_state(),
                 **{key: rng.bit_generator.state for key, rng in self.rngs.items()}}
        torch.save(state, self.path.with_suffix(".tmp"))
        self.path.with_suffix(".tmp").replace(self.path)
        torch.save(self.model.state_dict(), self.weights)

    def save_on_sigterm(self) -> None:
        """A stopped run (SIGTERM) saves where it is and ends cleanly."""

        def stop(signum: int, frame: object) -> None:
            self.save()
            print(f"stopped at step {self.step}; checkpoint {self.path}", flush=True)
            raise SystemExit(0)

        signal.signal(signal.SIGTERM, stop)
