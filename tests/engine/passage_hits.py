"""A retrieved passage as the answer writers read it (text, address, section), for tests that hand
made-up passages to the topic path instead of searching the index."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Hit:
    text: str
    url: str
    parent_id: str
    section: str = ""
    title: str = "IRD"
    source_type: str = "ird_guidance"
