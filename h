HTTP/1.1 416 Range Not Satisfiable
cross-origin-opener-policy: same-origin
cross-origin-resource-policy: cross-origin
origin-agent-cluster: ?1
referrer-policy: no-referrer
strict-transport-security: max-age=31536000; includeSubDomains
x-content-type-options: nosniff
x-dns-prefetch-control: off
x-download-options: noopen
x-frame-options: SAMEORIGIN
x-permitted-cross-domain-policies: none
x-xss-protection: 0
vary: Origin
access-control-expose-headers: x-request-id, retry-after
x-ratelimit-limit: 100000
x-ratelimit-remaining: 99979
x-ratelimit-reset: 49
content-range: bytes */60
content-type: application/json; charset=utf-8
x-request-id: 94ce0504-fee7-4ec1-9567-a6ef9c14f391
content-length: 47
Date: Mon, 23 Nov 2026 08:15:13 GMT
Connection: keep-alive
Keep-Alive: timeout=72

