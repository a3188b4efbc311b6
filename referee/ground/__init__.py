"""The ground under every layer: helpers that belong to none (the shared wording, frozen values,
the pause of the cycle collector, where the bundled data lies), which any layer may import and
which import nothing of referee's but one another."""
