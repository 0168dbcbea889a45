// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBaseRegistrar, IENS, INameWrapperForControllers} from "./Interfaces.sol";
import {DevnetPriceOracle} from "./DevnetPriceOracle.sol";
import {WrappedEthRegistrarController} from "./WrappedEthRegistrarController.sol";

/// Lineanames' controller: the 2023 .eth controller (wrapped registrations under linea.eth) plus two free paths,
/// registrations by the controller's owner and one registration per Proof-of-Humanity-verified address. The PoH
/// signature check is replaced by an allowlist the owner keeps; the events are mainnet's.
contract LineanamesRegistrarController is WrappedEthRegistrarController {
    uint256 public constant POH_DURATION = 365 days;

    event OwnerNameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires);
    event PohNameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires);

    mapping(address => bool) public pohVerified;
    mapping(address => bool) public hasPohRegistered;

    constructor(
        IBaseRegistrar _base,
        IENS _ens,
        bytes32 _baseNode,
        DevnetPriceOracle _prices,
        uint256 _minAge,
        uint256 _maxAge,
        INameWrapperForControllers _nameWrapper
    ) WrappedEthRegistrarController(_base, _ens, _baseNode, _prices, _minAge, _maxAge, _nameWrapper) {}

    function setPohVerified(address account, bool verified) external {
        require(msg.sender == owner, "only owner");
        pohVerified[account] = verified;
    }

    function ownerRegister(string calldata name, address owner_, uint256 duration, address resolver) external {
        require(msg.sender == owner, "only owner");
        require(available(name), "name unavailable");
        uint256 expires = nameWrapper.registerAndWrapETH2LD(name, owner_, duration, resolver, 0);
        emit OwnerNameRegistered(name, keccak256(bytes(name)), owner_, expires);
    }

    function pohRegister(string calldata name, address owner_, address resolver) external {
        require(pohVerified[msg.sender], "not PoH verified");
        require(!hasPohRegistered[msg.sender], "PoH registration used");
        require(available(name), "name unavailable");
        hasPohRegistered[msg.sender] = true;
        uint256 expires = nameWrapper.registerAndWrapETH2LD(name, owner_, POH_DURATION, resolver, 0);
        emit PohNameRegistered(name, keccak256(bytes(name)), owner_, expires);
    }
}
