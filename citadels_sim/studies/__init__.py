"""Studies built on the engine: experiments, comparisons, balance tests (restricted play),
leagues, tuning and hardening."""
