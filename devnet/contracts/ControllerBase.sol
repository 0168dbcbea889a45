// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBaseRegistrar, IENS} from "./Interfaces.sol";
import {DevnetPriceOracle} from "./DevnetPriceOracle.sol";

/// What the .eth-style controllers share: commit/reveal (a commitment must age `minCommitmentAge` before the reveal,
/// so a registration spans two blocks like on mainnet), pricing through the oracle, and refunds of overpayment.
abstract contract ControllerBase {
    uint256 public constant MIN_REGISTRATION_DURATION = 28 days;

    IBaseRegistrar public immutable base;
    IENS public immutable ens;
    bytes32 public immutable baseNode;
    DevnetPriceOracle public immutable prices;
    uint256 public immutable minCommitmentAge;
    uint256 public immutable maxCommitmentAge;
    address public immutable owner;
    mapping(bytes32 => uint256) public commitments;

    constructor(IBaseRegistrar _base, IENS _ens, bytes32 _baseNode, DevnetPriceOracle _prices, uint256 _minAge, uint256 _maxAge) {
        base = _base;
        ens = _ens;
        baseNode = _baseNode;
        prices = _prices;
        minCommitmentAge = _minAge;
        maxCommitmentAge = _maxAge;
        owner = msg.sender;
    }

    function rentPrice(string calldata name, uint256 duration) public view returns (uint256 baseCost, uint256 premium) {
        bytes32 label = keccak256(bytes(name));
        return prices.price(name, base.nameExpires(uint256(label)), duration);
    }

    function valid(string calldata name) public view returns (bool) {
        return prices.strlen(name) >= 3;
    }

    function available(string calldata name) public view returns (bool) {
        return valid(name) && base.available(uint256(keccak256(bytes(name))));
    }

    function commit(bytes32 commitment) external {
        require(commitments[commitment] + maxCommitmentAge < block.timestamp, "unexpired commitment exists");
        commitments[commitment] = block.timestamp;
    }

    /// Checks and consumes a commitment, checks availability and payment; returns the price paid.
    function _consume(bytes32 commitment, string calldata name, uint256 duration) internal returns (uint256 baseCost, uint256 premium) {
        uint256 committed = commitments[commitment];
        require(committed + minCommitmentAge <= block.timestamp, "commitment too new");
        require(committed + maxCommitmentAge > block.timestamp, "commitment too old");
        delete commitments[commitment];
        require(available(name), "name unavailable");
        require(duration >= MIN_REGISTRATION_DURATION, "duration too short");
        (baseCost, premium) = rentPrice(name, duration);
        _charge(baseCost + premium);
    }

    function _charge(uint256 cost) internal {
        require(msg.value >= cost, "insufficient value");
        if (msg.value > cost) payable(msg.sender).transfer(msg.value - cost);
    }
}
