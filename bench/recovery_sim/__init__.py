"""A recovery benchmark: agents (errgen's, the real anthropic and openai clients, a Stripe-style
policy, a hand-written client, tenacity, an oracle), each inside the same job, enrich contacts
through a service whose errors come from the simulation registry's generated Python SDK, behind a
proxy and a gateway that answer in their own formats and connections that drop or hang, over real
HTTP on loopback, in virtual time, with the same operator; every harm is counted from the
service's write log.

Run: python -m bench.recovery_sim [--seeds 41,42,43,44,45] [--items 2000] [--runs errgen,plain,...]
     [--fault NAME=RATE ...] [--sweep NAME=R1,R2,...] [--json PATH]
"""
