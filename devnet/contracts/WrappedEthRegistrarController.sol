// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBaseRegistrar, IENS, INameWrapperForControllers} from "./Interfaces.sol";
import {DevnetPriceOracle} from "./DevnetPriceOracle.sol";
import {ControllerBase} from "./ControllerBase.sol";

/// The 2023 .eth controller: every registration is wrapped in the NameWrapper; prices split into base and premium.
/// Also used (deployed again) as the Lineanames controller's core; see LineanamesRegistrarController.
contract WrappedEthRegistrarController is ControllerBase {
    event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires);
    event NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires);

    INameWrapperForControllers public immutable nameWrapper;

    constructor(
        IBaseRegistrar _base,
        IENS _ens,
        bytes32 _baseNode,
        DevnetPriceOracle _prices,
        uint256 _minAge,
        uint256 _maxAge,
        INameWrapperForControllers _nameWrapper
    ) ControllerBase(_base, _ens, _baseNode, _prices, _minAge, _maxAge) {
        nameWrapper = _nameWrapper;
    }

    function makeCommitment(string calldata name, address owner_, uint256 duration, bytes32 secret, address resolver, uint16 fuses)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(keccak256(bytes(name)), owner_, duration, secret, resolver, fuses));
    }

    function register(string calldata name, address owner_, uint256 duration, bytes32 secret, address resolver, uint16 fuses)
        external
        payable
    {
        (uint256 baseCost, uint256 premium) = _consume(makeCommitment(name, owner_, duration, secret, resolver, fuses), name, duration);
        uint256 expires = nameWrapper.registerAndWrapETH2LD(name, owner_, duration, resolver, fuses);
        emit NameRegistered(name, keccak256(bytes(name)), owner_, baseCost, premium, expires);
    }

    /// Renews wrapped and unwrapped names alike; the wrapper keeps a wrapped name's expiry in step.
    function renew(string calldata name, uint256 duration) external payable {
        bytes32 label = keccak256(bytes(name));
        (uint256 baseCost,) = rentPrice(name, duration);
        _charge(baseCost);
        uint256 expires = nameWrapper.renew(uint256(label), duration);
        emit NameRenewed(name, label, baseCost, expires);
    }
}
