"""What `swords judge llm` and `validate` say while they wait for a server, as `swords run` does: what they wait
for, then every retry and its wait as it starts (in the progress bar, else a line at most every STATUS_SECONDS)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from swords_baselines.judge.llm import LOCAL_SLOTS, LLMJudge
from swords_lexsub.terminal import say, shown

STATUS_SECONDS = 10.0  # without a progress bar, a retry is said at most this often


def announce(judge: LLMJudge, command: str, labels: int | None = None) -> None:
    """One line on stderr: what the command is about to wait for (or read: --batch-import)."""
    what = f"{labels:,} labels" if labels is not None else "labels"
    if judge.imported is not None:
        say(f"{command}: reading {what} from {judge.imported.path} (--batch-import)")
        return
    in_flight = LOCAL_SLOTS if judge.settings.local else judge.settings.concurrency
    per = f"each answer awaited up to {judge.settings.seconds_a_request:g} s (--timeout)"
    say(f"{command}: asking {judge.server} for {what}, {in_flight} at a time, {per}")


def say_slots(judge: LLMJudge, command: str) -> None:
    """Once entered: the server's slots and the requests sent at once, when the server said (llm/slots.py)."""
    if judge.slots_said is not None:
        from tqdm import tqdm

        tqdm.write(shown(f"{command}: {judge.slots_said}"), file=sys.stderr)  # above a progress bar, if one shows


def retry_status(command: str, bar=None) -> Callable[[object, str, float], None]:
    """The client's on_retry: the retries so far, the last reason and the wait, in `bar`'s status if it shows."""
    shown_at = [-STATUS_SECONDS]

    def retrying(usage, reason: str, wait: float) -> None:
        short = reason if len(reason) <= 60 else reason[:57] + "..."
        status = f"{usage.retries} retr{'y' if usage.retries == 1 else 'ies'} (last: {short}), waiting {wait:.3g} s"
        if bar is not None and not bar.disable:
            bar.set_postfix_str(shown(status), refresh=True)
        elif time.monotonic() - shown_at[0] >= STATUS_SECONDS:
            shown_at[0] = time.monotonic()
            say(f"{command}: {status}")

    return retrying
