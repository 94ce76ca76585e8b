"""The conformance handler (emulator/serverless/HANDLER.md) on the official worker library.

An async generator function: the library streams a job only when the handler *function* is a
generator function, and an async one sleeps without blocking the worker's loop, so a job-stop
(a cancel or an execution timeout) stops the job at once. Every job yields its items, then ends;
with ``return_aggregate_stream`` the job's ``output`` is the list of what it yielded. A failure is
a yielded ``{"error": message}``, never a raised exception (whose error the library wraps with a
traceback): the job ends FAILED with ``error`` exactly the message.
"""

import asyncio

import runpod

# Inclusive bounds of the numeric fields (HANDLER.md, Input protocol).
LIMITS = {"sleepMs": (0, 86_400_000), "chunkMs": (0, 3_600_000), "stream": (1, 10_000), "outputBytes": (1, 32_000_000)}
# Text per item of a large output: with its fields the item's JSON stays under 1 000 000 bytes.
PIECE_BYTES = 999_000
PHRASE = "lorem ipsum dolor sit amet "


def tokens(text):
    """Token count of a text: a quarter of its characters (UTF-16 code units), at least one."""
    return max(1, -(-len(text.encode("utf-16-le")) // 8))


def integer(value):
    """The value as an int when it is a JSON integer (5 or 5.0), else None; booleans are not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if float(value).is_integer() else None


def read_input(job_input):
    """The job's input checked against the protocol: (fields, problems)."""
    if not isinstance(job_input, dict):
        return {}, ["input must be an object"]
    problems, fields = [], {}
    for key, (low, high) in LIMITS.items():
        if key not in job_input:
            continue
        value = integer(job_input[key])
        if value is None or not low <= value <= high:
            problems.append(f"{key} must be an integer from {low} to {high}")
        else:
            fields[key] = value
    if "fail" in job_input:
        if isinstance(job_input["fail"], str) and job_input["fail"]:
            fields["fail"] = job_input["fail"]
        else:
            problems.append("fail must be a non-empty string (the error message)")
    if "timeout" in job_input and not isinstance(job_input["timeout"], bool):
        problems.append("timeout must be a boolean")
    if "prompt" in job_input and not isinstance(job_input["prompt"], str):
        problems.append("prompt must be a string")
    if "error" in job_input:
        problems.append("error is reserved (a yielded error fails the job)")
    if "stream" in fields and "outputBytes" in fields:
        problems.append("give stream or outputBytes, not both")
    return fields, problems


def texts(fields):
    """The texts of a text-generation job's items, or None for a plain job."""
    if "stream" in fields:
        return [f"token-{n} " for n in range(fields["stream"])]
    if "outputBytes" in fields:
        size = fields["outputBytes"]
        return [(PHRASE * (PIECE_BYTES // len(PHRASE) + 1))[: min(PIECE_BYTES, size - at)] for at in range(0, size, PIECE_BYTES)]
    return None


async def handler(job):
    """Sleeps, yields the items (one per chunkMs), then ends as the input asks."""
    job_input = job["input"]
    fields, problems = read_input(job_input)
    if problems:
        yield {"error": "conformance handler: " + "; ".join(problems)}
        return
    await asyncio.sleep(fields.get("sleepMs", 0) / 1000)
    pieces = texts(fields)
    prompt_tokens = tokens(job_input.get("prompt", ""))
    # A plain job yields its input once: its output is [input].
    items = [job_input] if pieces is None else [
        {"input_tokens": prompt_tokens, "output_tokens": tokens(text), "text": [text]} for text in pieces
    ]
    for item in items:
        await asyncio.sleep(fields.get("chunkMs", 0) / 1000)
        yield item
    while job_input.get("timeout") is True:
        await asyncio.sleep(60)  # never ends: the platform's execution timeout stops the job
    if "fail" in fields:
        yield {"error": fields["fail"]}


if __name__ == "__main__":
    runpod.serverless.start({"handler": handler, "return_aggregate_stream": True})
