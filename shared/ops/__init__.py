"""Running and measuring the services: the local runner behind ``make run`` and its embedded Redis, the
load balancer config, deployment manifests, benchmarks, the OpenAPI spec writer and golden logs.
"""
