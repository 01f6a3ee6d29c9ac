"""A fault-injection simulation: agents enrich contacts through a service whose errors come from
the default registry's generated Python SDK, over real HTTP on loopback, in virtual time.

Run: python -m bench.recovery_sim [--seed 7] [--items 10000] [--agents errgen,naive,cautious,oracle]
"""
