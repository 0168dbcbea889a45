// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IWrappedController {
    function rentPrice(string calldata name, uint256 duration) external view returns (uint256 baseCost, uint256 premium);
    function renew(string calldata name, uint256 duration) external payable;
}

/// Renews any .eth 2LD (wrapped or not) through the 2023 controller, which keeps a wrapped name's expiry in step,
/// and records who referred the renewal.
contract UniversalRegistrarRenewalWithReferrer {
    event RenewalReferred(string label, bytes32 indexed labelHash, uint256 cost, uint256 duration, bytes32 referrer);

    IWrappedController public immutable controller;

    constructor(IWrappedController _controller) {
        controller = _controller;
    }

    function renew(string calldata label, uint256 duration, bytes32 referrer) external payable {
        (uint256 cost,) = controller.rentPrice(label, duration);
        require(msg.value >= cost, "insufficient value");
        controller.renew{value: cost}(label, duration);
        if (msg.value > cost) payable(msg.sender).transfer(msg.value - cost);
        emit RenewalReferred(label, keccak256(bytes(label)), cost, duration, referrer);
    }

    receive() external payable {}
}
