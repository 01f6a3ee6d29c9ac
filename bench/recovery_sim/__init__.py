"""A recovery benchmark: agents (errgen's, the real anthropic and openai clients, a Stripe-style
policy, a hand-written job, tenacity, an oracle) enrich contacts through a service whose errors
come from the simulation registry's generated Python SDK, over real HTTP on loopback, in virtual
time, with the same operator on a 401; every harm is counted from the service's write log.

Run: python -m bench.recovery_sim [--seeds 11,12,13,14,15] [--items 2000] [--runs errgen,plain,...] [--json PATH]
"""
