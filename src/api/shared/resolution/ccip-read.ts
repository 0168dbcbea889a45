import { type CcipRequestParameters, ccipRequest, type Hex, size } from "viem";
import { currentStep, FORWARD_RESOLUTION } from "./trace";

/*
 * EIP-3668 gateway requests (a resolver's OffchainLookup, which viem follows inside `eth_call`), as the onchain
 * backend's clients make them: viem's own request, and under a trace one `ccip-read` step per request (the
 * UniversalResolver's local batch gateway asks each inner lookup through here too).
 */

export function tracedCcipRequest(parameters: CcipRequestParameters): Promise<Hex> {
  const current = currentStep();
  if (!current) return ccipRequest(parameters);
  const attributes = {
    sender: parameters.sender.toLowerCase(),
    urls: parameters.urls.join(" "),
    data: parameters.data,
  };
  return current.trace.step(FORWARD_RESOLUTION, "ccip-read", attributes, async (span) => {
    const response = await ccipRequest(parameters);
    span.set("responseBytes", size(response));
    return response;
  });
}
