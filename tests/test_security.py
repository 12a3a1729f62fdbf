"""TLS, mutual TLS and bearer tokens over real loopback gRPC, with certificates the tests make themselves."""

import datetime
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.client import TranslatorClient
from service.security import BearerTokens, channel_credentials, load_tokens, server_credentials
from tests.grpc_server import RunningServer, wait_until
from tests.test_server import TEXTS, config_for

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "s3cret-token-for-tests"


def issue(name: str, issuer=None, ca: bool = False):
    """(certificate, key) for `name` (a DNS name and 127.0.0.1), signed by issuer (cert, key) or self-signed."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    signer_cert, signer_key = issuer if issuer else (None, key)
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(subject)
               .issuer_name(signer_cert.subject if signer_cert else subject)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if not ca:
        builder = builder.add_extension(x509.SubjectAlternativeName(
            [x509.DNSName(name), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
    return builder.sign(signer_key, hashes.SHA256()), key


def write_pem(directory: Path, name: str, cert, key) -> tuple[Path, Path]:
    from cryptography.hazmat.primitives import serialization

    cert_path, key_path = directory / f"{name}.crt", directory / f"{name}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    directory = tmp_path_factory.mktemp("pki")
    ca = issue("translator test CA", ca=True)
    other_ca = issue("someone else's CA", ca=True)
    files = {"ca": write_pem(directory, "ca", *ca)[0], "other_ca": write_pem(directory, "other-ca", *other_ca)[0]}
    files["server"] = write_pem(directory, "server", *issue("localhost", issuer=ca))
    files["client"] = write_pem(directory, "client", *issue("batch-job", issuer=ca))
    files["stranger"] = write_pem(directory, "stranger", *issue("stranger", issuer=other_ca))
    files["tokens"] = directory / "tokens"
    files["tokens"].write_text(f"old-token\n{TOKEN}\n")
    return files


@pytest.fixture(scope="module")
def mtls_server(exported_tiny, pki):
    cert, key = pki["server"]
    running = RunningServer(config_for(exported_tiny, tls_cert=cert, tls_key=key, tls_client_ca=pki["ca"],
                                       auth_token_file=pki["tokens"]))
    yield running
    running.stop()


def test_mutual_tls_with_a_token_translates(mtls_server, pki):
    cert, key = pki["client"]
    with TranslatorClient(mtls_server.target, ca=pki["ca"], cert=cert, key=key, token=TOKEN, timeout=20) as client:
        assert client.translate([TEXTS[0]]).translations[0].text
        assert "".join(c.text for c in client.stream([TEXTS[0]]))


@pytest.mark.parametrize("token", [None, "wrong", "old-token-but-longer", ""])
def test_a_missing_or_wrong_token_is_unauthenticated(mtls_server, pki, token, monkeypatch):
    monkeypatch.delenv("TRANSLATOR_AUTH_TOKEN", raising=False)
    cert, key = pki["client"]
    with TranslatorClient(mtls_server.target, ca=pki["ca"], cert=cert, key=key, token=token, timeout=20) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.translate([TEXTS[0]])
    assert error.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "bearer token" in error.value.details() and (token or "x") not in error.value.details().replace("Bearer <token>", "")
    assert wait_until(lambda: mtls_server.requests_counted("Translate", "UNAUTHENTICATED") >= 1)  # counted once the status is sent, so a moment after the client sees it


@pytest.mark.parametrize("value, accepted", [
    (f"Bearer {TOKEN}", True), (f"bearer {TOKEN}", True), (f"BEARER  {TOKEN} ", True), (f"Basic {TOKEN}", False),
    (f"Bearer{TOKEN}", False), (TOKEN, False), ("Bearer ", False),
])
def test_the_bearer_scheme_is_read_case_insensitively(value, accepted):
    tokens = BearerTokens((TOKEN.encode(),))
    assert tokens.authorized([("authorization", value)]) is accepted
    assert tokens.authorized([("authorization", value), ("authorization", value)]) is False  # one header only


def test_every_token_in_the_file_is_accepted(mtls_server, pki):
    cert, key = pki["client"]
    with TranslatorClient(mtls_server.target, ca=pki["ca"], cert=cert, key=key, token="old-token", timeout=20) as client:
        assert client.list_models().models[0].name == "tiny"


def test_health_needs_no_token(mtls_server, pki):
    cert, key = pki["client"]
    with grpc.secure_channel(mtls_server.target, channel_credentials(pki["ca"], cert, key)) as channel:
        response = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert response.status == health_pb2.HealthCheckResponse.SERVING


@pytest.mark.parametrize("client_identity", [None, "stranger"])
def test_mutual_tls_refuses_clients_without_a_trusted_certificate(mtls_server, pki, client_identity):
    cert, key = pki[client_identity] if client_identity else (None, None)
    with TranslatorClient(mtls_server.target, ca=pki["ca"], cert=cert, key=key, token=TOKEN, timeout=5) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.translate([TEXTS[0]])
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE  # the handshake fails; no call reaches the server


def test_a_client_that_does_not_trust_the_server_certificate_cannot_connect(mtls_server, pki):
    cert, key = pki["client"]
    with TranslatorClient(mtls_server.target, ca=pki["other_ca"], cert=cert, key=key, token=TOKEN, timeout=5) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.translate([TEXTS[0]])
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE


def test_plaintext_clients_cannot_talk_to_a_tls_server(mtls_server):
    with TranslatorClient(mtls_server.target, token=TOKEN, timeout=5) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.translate([TEXTS[0]])
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE


def test_cli_speaks_tls_and_tokens(mtls_server, pki, tmp_path):
    cert, key = pki["client"]
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    common = ["--server", mtls_server.target, "--tls-ca", str(pki["ca"]), "--tls-cert", str(cert), "--tls-key", str(key)]
    result = subprocess.run([sys.executable, "-m", "service.cli", "translate", *common, "--token-file", str(token_file),
                             TEXTS[0]], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0 and result.stdout.strip(), result.stderr
    refused = subprocess.run([sys.executable, "-m", "service.cli", "translate", *common, TEXTS[0]], capture_output=True,
                             text=True, cwd=ROOT, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert refused.returncode == 1 and "UNAUTHENTICATED" in refused.stderr
    health = subprocess.run([sys.executable, "-m", "service.cli", "health", *common], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert health.returncode == 0 and "SERVING" in health.stdout
    (tmp_path / "in.txt").write_text(TEXTS[0] + "\n", encoding="utf-8")
    job = subprocess.run([sys.executable, "-m", "service.cli", "batch", *common, "--token-file", str(token_file), "--quiet",
                          "--input", str(tmp_path / "in.txt"), "--output", str(tmp_path / "out.txt")],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert job.returncode == 0 and (tmp_path / "out.txt").read_text(encoding="utf-8").strip(), job.stderr
    # Without the token: the refusal itself, not gRPC's "INTERNAL: Internal error from Core", which replaces a
    # stream's status when a write meets the stream already ended (grpc#36066; 2 of 5 jobs said that).
    (tmp_path / "many.txt").write_text("".join(f"{TEXTS[0]} {i}\n" for i in range(300)), encoding="utf-8")
    for attempt in range(3):
        refused = subprocess.run([sys.executable, "-m", "service.cli", "batch", *common, "--quiet", "--input",
                                  str(tmp_path / "many.txt"), "--output", str(tmp_path / f"refused{attempt}.txt")],
                                 capture_output=True, text=True, cwd=ROOT, timeout=60, env={"PATH": "/usr/bin:/bin"})
        assert refused.returncode == 1 and "UNAUTHENTICATED" in refused.stderr, refused.stderr


def test_tls_settings_are_checked(exported_tiny, pki):
    with pytest.raises(ValueError, match="TLS needs both a certificate"):
        config_for(exported_tiny, tls_cert=pki["server"][0])
    with pytest.raises(ValueError, match="mutual TLS .* needs TLS"):
        config_for(exported_tiny, tls_client_ca=pki["ca"])


def test_asking_for_tokens_and_giving_none_refuses_to_start(tmp_path, monkeypatch):
    """Fails closed: an empty secret mounted as the token file (or a variable set to nothing) served everyone."""
    monkeypatch.delenv("TRANSLATOR_AUTH_TOKEN", raising=False)
    empty = tmp_path / "tokens.txt"
    empty.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(ValueError, match="holds no token"):
        load_tokens(empty)
    monkeypatch.setenv("TRANSLATOR_AUTH_TOKEN", " ")
    with pytest.raises(ValueError, match="TRANSLATOR_AUTH_TOKEN is set but empty"):
        load_tokens(None)
    monkeypatch.setenv("TRANSLATOR_AUTH_TOKEN", TOKEN)
    assert load_tokens(empty) == (TOKEN.encode(),)  # the variable's token is one
    monkeypatch.delenv("TRANSLATOR_AUTH_TOKEN")
    assert load_tokens(None) == ()  # nothing asked: authentication off


def test_a_token_or_certificate_file_that_is_missing_is_named_before_anything_loads(exported_tiny, tmp_path):
    with pytest.raises(ValueError, match=f"auth_token_file={tmp_path / 'none.txt'} is not a file"):
        config_for(exported_tiny, auth_token_file=tmp_path / "none.txt")
    with pytest.raises(ValueError, match=f"tls_cert={tmp_path} is not a file"):
        config_for(exported_tiny, tls_cert=tmp_path, tls_key=tmp_path / "key.pem")


def test_a_certificate_that_is_not_one_is_named_before_anything_loads(pki, tmp_path):
    """gRPC took any bytes as a certificate and then failed to bind, which read as a port in use."""
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    (cert, key), (_, other_key) = pki["server"], pki["client"]
    assert server_credentials(cert, key, pki["ca"]) is not None
    with pytest.raises(ValueError, match=f"--tls-cert {junk} and --tls-key {key} are not a PEM certificate chain"):
        server_credentials(junk, key)
    with pytest.raises(ValueError, match="are not a PEM certificate chain and its unencrypted private key"):
        server_credentials(cert, other_key)  # a key that is not the certificate's
    with pytest.raises(ValueError, match=f"--tls-client-ca {junk} is not a PEM CA certificate"):
        server_credentials(cert, key, junk)
    from cryptography.hazmat.primitives import serialization

    encrypted = tmp_path / "encrypted.key"  # gRPC cannot use it; Python's ssl would prompt on the terminal for it
    encrypted.write_bytes(serialization.load_pem_private_key(key.read_bytes(), None).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.BestAvailableEncryption(b"pw")))
    with pytest.raises(ValueError, match="its unencrypted private key"):
        server_credentials(cert, encrypted)
