"""A strategy whose first aim never ends, for the time-limit test."""

import time


class Slow:
    def aim(self, view, legal):
        time.sleep(60)
        return legal[0]

    def card(self, view, legal):
        return legal[0]

    def lie_down(self, view, legal):
        return False
