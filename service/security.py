"""Transport security and authentication, for the server and for clients.

- TLS: the server presents a certificate; with a client CA it also requires and verifies client
  certificates (mutual TLS).
- Bearer tokens: with tokens configured, every ``translator.v1.Translator`` call must carry
  ``authorization: Bearer <token>`` metadata, or it ends with ``UNAUTHENTICATED``. Health and reflection
  stay open (load balancers and probes have no token). Tokens come from a file (one per line, so that a
  new token can be added before the old one is removed) or the environment, are compared in constant
  time, and are never logged.
"""

from __future__ import annotations

import hmac
import os
import ssl
from pathlib import Path

import grpc

TOKEN_ENV = "TRANSLATOR_AUTH_TOKEN"  # the server's accepted token, and what clients send
AUTHORIZATION = "authorization"


def read_bytes(path: Path | None) -> bytes | None:
    return Path(path).read_bytes() if path else None


def server_credentials(cert: Path, key: Path, client_ca: Path | None = None) -> grpc.ServerCredentials:
    """TLS with this certificate and key; with client_ca, clients must present a certificate it signed.
    ValueError names the file that is not what it should be: gRPC accepts any bytes here and only fails to bind,
    which read as a port in use."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:  # a password of b"" refuses an encrypted key (gRPC cannot use one) instead of prompting on the terminal
        context.load_cert_chain(cert, key, password=b"")
    except ssl.SSLError as error:
        raise ValueError(f"--tls-cert {cert} and --tls-key {key} are not a PEM certificate chain and its unencrypted "
                         f"private key ({error.reason or error})") from None
    if client_ca is not None:
        try:
            context.load_verify_locations(client_ca)
        except ssl.SSLError as error:
            raise ValueError(f"--tls-client-ca {client_ca} is not a PEM CA certificate ({error.reason or error})") from None
    return grpc.ssl_server_credentials([(read_bytes(key), read_bytes(cert))], root_certificates=read_bytes(client_ca),
                                       require_client_auth=client_ca is not None)


def channel_credentials(ca: Path | None = None, cert: Path | None = None, key: Path | None = None) -> grpc.ChannelCredentials:
    """TLS trusting `ca` (default: the system's roots); cert and key identify the client for mutual TLS."""
    return grpc.ssl_channel_credentials(root_certificates=read_bytes(ca), private_key=read_bytes(key),
                                        certificate_chain=read_bytes(cert))


def load_tokens(token_file: Path | None, environ=os.environ) -> tuple[bytes, ...]:
    """Accepted tokens: the non-empty lines of token_file plus TRANSLATOR_AUTH_TOKEN; none = no authentication.
    Asking for tokens and giving none fails closed (ValueError): an empty secret mounted as the token file, or a
    variable set to nothing, would otherwise serve everyone."""
    tokens = []
    if token_file:
        tokens += [line.strip() for line in Path(token_file).read_text(encoding="utf-8").splitlines() if line.strip()]
    if TOKEN_ENV in environ:
        if not environ[TOKEN_ENV].strip():
            raise ValueError(f"{TOKEN_ENV} is set but empty: set a token, or unset it to serve without authentication")
        tokens.append(environ[TOKEN_ENV].strip())
    if token_file and not tokens:
        raise ValueError(f"--auth-token-file {token_file} holds no token (one per line): add one, or leave the flag "
                         "unset to serve without authentication")
    return tuple(token.encode() for token in tokens)


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """Call metadata carrying a token."""
    return ((AUTHORIZATION, f"Bearer {token}"),)


class BearerTokens:
    """The accepted tokens; ``authorized(metadata)`` checks one call's metadata."""

    def __init__(self, tokens: tuple[bytes, ...]):
        if not tokens:
            raise ValueError("no tokens: leave authentication off instead")
        self.tokens = tokens

    def authorized(self, metadata) -> bool:
        values = [value for key, value in metadata or () if key == AUTHORIZATION]
        # The scheme's name is case-insensitive (RFC 7235): some clients send "bearer".
        if len(values) != 1 or not isinstance(values[0], str) or values[0][:7].lower() != "bearer ":
            return False
        offered = values[0][7:].strip().encode()
        # Compare with every token (no early exit), each in constant time.
        return sum(hmac.compare_digest(offered, token) for token in self.tokens) > 0


UNAUTHENTICATED_MESSAGE = "missing or invalid bearer token: send metadata 'authorization: Bearer <token>'"
